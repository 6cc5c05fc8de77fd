import { describe, expect, it } from "vitest";
import { createRegistry } from "../../src/relay/prometheus.js";

// Internal: label values reach the text format from template ids and statuses, which the relay
// constrains; the escaping is checked here directly because no public input can reach it.
describe("the exposition writer", () => {
  it("escapes backslashes, quotes and newlines in label values", () => {
    const registry = createRegistry();
    registry.counter("x_total", "help", ["name"]).inc({ name: 'a"b\\c\nd' });
    expect(registry.render()).toContain('x_total{name="a\\"b\\\\c\\nd"} 1\n');
  });

  it("counts a family without labels from zero, and places observations in cumulative buckets", () => {
    const registry = createRegistry();
    registry.counter("failures_total", "help");
    const histogram = registry.histogram("latency_seconds", "help", ["route"], [0.1, 1]);
    for (const value of [0.05, 0.5, 0.7, 3]) histogram.observe({ route: "/r" }, value);
    expect(registry.render()).toBe(
      [
        "# HELP failures_total help",
        "# TYPE failures_total counter",
        "failures_total 0",
        "# HELP latency_seconds help",
        "# TYPE latency_seconds histogram",
        'latency_seconds_bucket{route="/r",le="0.1"} 1',
        'latency_seconds_bucket{route="/r",le="1"} 3',
        'latency_seconds_bucket{route="/r",le="+Inf"} 4',
        'latency_seconds_sum{route="/r"} 4.25',
        'latency_seconds_count{route="/r"} 4',
        "",
      ].join("\n"),
    );
  });
});
