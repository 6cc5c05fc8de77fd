/**
 * `mine`'s generic clustering as a {@link LineParser}: mining's own reading of plain lines (each joins
 * a cluster as it is read, then clusters the reading split are merged), with its one default
 * configuration for every system: no masks, no per-system settings. Kept alone in this file so the
 * benchmark follows the clustering when it changes: only this adapter needs to.
 */
import { clusterLines } from "../../src/mine/cluster-lines.js";
import type { LineParser } from "./line-parser.js";

export const mineParser: LineParser = {
  name: "mine",
  parse: (contents) => clusterLines(contents),
};
