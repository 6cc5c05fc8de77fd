/**
 * Counters, gauges and histograms in the Prometheus text exposition format (version 0.0.4), written by
 * hand: the relay needs a handful of series, not a client library.
 */

type Labels = Readonly<Record<string, string>>;

/** A series family that can write itself out. */
interface Family {
  render(): string;
}

/** A monotonically increasing count per label set. */
export interface Counter {
  inc(labels?: Labels, by?: number): void;
}

/** Observations counted into cumulative buckets, with their sum. */
export interface Histogram {
  observe(labels: Labels, value: number): void;
}

/** The content type Prometheus expects for the text format. */
export const exposition = "text/plain; version=0.0.4; charset=utf-8";

// Label values may hold anything a template id or route holds; the format escapes these three.
const escapeValue = (value: string): string =>
  value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function labelText(names: readonly string[], values: readonly string[], extra = ""): string {
  const pairs = names.map((name, index) => `${name}="${escapeValue(values[index] ?? "")}"`);
  if (extra !== "") pairs.push(extra);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

const header = (name: string, help: string, type: string): string =>
  `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;

// Integers print as integers; sums of seconds keep enough digits for sub-millisecond latencies.
const numberText = (value: number): string =>
  Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(9)));

/** A set of metric families, rendered in the order they were created. */
export function createRegistry() {
  const families: Family[] = [];
  const valuesOf = (names: readonly string[], labels: Labels) => names.map((name) => labels[name] ?? "");

  return {
    counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
      const series = new Map<string, { values: string[]; count: number }>();
      families.push({
        render: () => {
          let text = header(name, help, "counter");
          if (series.size === 0 && labelNames.length === 0) text += `${name} 0\n`;
          for (const { values, count } of series.values())
            text += `${name}${labelText(labelNames, values)} ${numberText(count)}\n`;
          return text;
        },
      });
      return {
        inc(labels = {}, by = 1) {
          const values = valuesOf(labelNames, labels);
          const key = values.join("\u0000");
          const entry = series.get(key);
          if (entry === undefined) series.set(key, { values, count: by });
          else entry.count += by;
        },
      };
    },

    /** A gauge read when the metrics are rendered: `read` returns one value per label set. */
    gauge(
      name: string,
      help: string,
      labelNames: readonly string[],
      read: () => readonly (readonly [Labels, number])[],
    ): void {
      families.push({
        render: () => {
          let text = header(name, help, "gauge");
          for (const [labels, value] of read())
            text += `${name}${labelText(labelNames, valuesOf(labelNames, labels))} ${numberText(value)}\n`;
          return text;
        },
      });
    },

    histogram(
      name: string,
      help: string,
      labelNames: readonly string[],
      buckets: readonly number[],
    ): Histogram {
      const series = new Map<string, { values: string[]; counts: number[]; sum: number; count: number }>();
      families.push({
        render: () => {
          let text = header(name, help, "histogram");
          for (const { values, counts, sum, count } of series.values()) {
            let cumulative = 0;
            buckets.forEach((bound, index) => {
              cumulative += counts[index] ?? 0;
              text += `${name}_bucket${labelText(labelNames, values, `le="${bound}"`)} ${cumulative}\n`;
            });
            text += `${name}_bucket${labelText(labelNames, values, 'le="+Inf"')} ${count}\n`;
            text += `${name}_sum${labelText(labelNames, values)} ${numberText(sum)}\n`;
            text += `${name}_count${labelText(labelNames, values)} ${count}\n`;
          }
          return text;
        },
      });
      return {
        observe(labels, value) {
          const values = valuesOf(labelNames, labels);
          const key = values.join("\u0000");
          let entry = series.get(key);
          if (entry === undefined) {
            entry = { values, counts: buckets.map(() => 0), sum: 0, count: 0 };
            series.set(key, entry);
          }
          const index = buckets.findIndex((bound) => value <= bound);
          if (index >= 0) entry.counts[index] = (entry.counts[index] ?? 0) + 1;
          entry.sum += value;
          entry.count += 1;
        },
      };
    },

    render: (): string => families.map((family) => family.render()).join(""),
  };
}
