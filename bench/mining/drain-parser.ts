/**
 * Drain as the published benchmark ran it: the lines of one system through one parser, grouped by the
 * template each cluster ends with (logparser names a line's group by a hash of its final template, so two
 * clusters that end with the same template are one group in the published figures).
 */
import { Drain, type DrainOptions } from "./drain.js";
import type { LineParser } from "./line-parser.js";

/** A {@link LineParser} running a fresh {@link Drain} with `options` over each list of lines. */
export function drainParser(options: DrainOptions, name = "Drain"): LineParser {
  return {
    name,
    parse(contents) {
      const drain = new Drain(options);
      const clusters = contents.map((content) => drain.add(content));
      const groups = new Map<string, number>();
      return clusters.map((cluster) => {
        const template = drain.template(cluster);
        let group = groups.get(template);
        if (group === undefined) {
          group = groups.size;
          groups.set(template, group);
        }
        return group;
      });
    },
  };
}
