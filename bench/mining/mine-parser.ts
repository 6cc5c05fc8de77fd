/**
 * `mine`'s generic clustering as a {@link LineParser}, with its one default configuration for every
 * system (no masks, no per-system settings). Kept alone in this file so the benchmark follows the
 * clustering when it changes: only this adapter needs to.
 */
import { Clusters } from "../../src/mine/clusters.js";
import type { LineParser } from "./line-parser.js";

export const mineParser: LineParser = {
  name: "mine",
  parse(contents) {
    const clusters = new Clusters();
    // Loghub lines have no records, so no recipient is ever found.
    return contents.map((content) => clusters.add(content, undefined).id);
  },
};
