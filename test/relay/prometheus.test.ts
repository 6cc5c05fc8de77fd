import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { register } from "prom-client";
import { describe, expect, it } from "vitest";
import { createRelay } from "../../src/relay/index.js";
import { createRegistry } from "../../src/relay/prometheus.js";
import { proposal } from "../fixtures/property.js";
import { agentSecret, call, useRelay } from "./harness.js";

// Counts the collectors started: each one runs an event-loop timer and a GC observer for good. The relay
// loads prom-client's CommonJS build when it is first created, so the count is taken on that module (by
// hand: the set-up restores spies after each test, and the first relay is made in an earlier one).
const promClient = createRequire(import.meta.url)("prom-client") as {
  collectDefaultMetrics: (...args: unknown[]) => void;
};
const startCollectors = promClient.collectDefaultMetrics;
let collectorsStarted = 0;
promClient.collectDefaultMetrics = (...args) => {
  collectorsStarted += 1;
  startCollectors(...args);
};

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

/**
 * Checks an exposition the way a scraper reads it: each family's HELP and TYPE once, before its samples;
 * every sample of a declared family (histograms add _bucket, _sum and _count); no series twice.
 */
function expositionProblems(text: string): string[] {
  const problems: string[] = [];
  const help = new Set<string>();
  const types = new Map<string, string>();
  const series = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const comment = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (comment !== null) {
      const [, kind, name = "", rest = ""] = comment;
      const seen = kind === "HELP" ? help : types;
      if (seen.has(name)) problems.push(`${kind} ${name} twice`);
      if (kind === "HELP") help.add(name);
      else types.set(name, rest);
      continue;
    }
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? "";
    const family = [name, name.replace(/_(bucket|sum|count)$/, "")].find((candidate) => types.has(candidate));
    if (family === undefined) problems.push(`${name} has no TYPE before it`);
    else if (family !== name && types.get(family) !== "histogram")
      problems.push(`${name} is not a histogram`);
    const key = line.slice(0, line.lastIndexOf(" "));
    if (series.has(key)) problems.push(`${key} twice`);
    series.add(key);
  }
  for (const name of types.keys()) if (!help.has(name)) problems.push(`${name} has no HELP`);
  return problems;
}

/** `promtool check metrics` on the text: what it reports, and its exit code. */
async function promtool(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile("promtool", ["check", "metrics"], (error, stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT") {
        reject(
          new Error(
            "promtool is not installed: install Debian's prometheus package (apt-get install prometheus), as .ci/run does",
          ),
        );
        return;
      }
      resolve({ code: typeof code === "number" ? code : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(text);
  });
}

describe("GET /metrics with the process's metrics", () => {
  const setup = useRelay();

  it("serves the relay's series, then Node's process metrics, each family once, valid for promtool", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    await call(url, "/v1/proposals", { token, json: { output: proposal("T-1") } });
    await call(url, "/v1/proposals", { token: "forged", json: { output: {} } });
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const family of [
      "formletter_relay_requests_total",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
    ])
      expect(text).toContain(`# TYPE ${family} `);
    expect(text.indexOf("formletter_relay_")).toBeLessThan(text.indexOf("process_cpu"));
    expect(expositionProblems(text)).toEqual([]);
    expect(await promtool(text)).toEqual({ code: 0, output: "" });
  });

  it("gives a second relay in the same process its own registry, and leaves prom-client's global one alone", async () => {
    const second = createRelay({ outbox: setup.rig.outbox, secret: agentSecret });
    const [first, other] = [await setup.rig.relay.metrics(), await second.metrics()];
    for (const text of [first, other]) {
      expect(expositionProblems(text)).toEqual([]);
      expect(text).toContain("# TYPE process_cpu_seconds_total counter");
    }
    expect(register.getMetricsAsArray()).toEqual([]);
    await second.close();
  });

  it("starts the process's collectors once, however many relays the process creates", async () => {
    for (let i = 0; i < 5; i++) {
      const relay = createRelay({ outbox: setup.rig.outbox, secret: agentSecret });
      expect(await relay.metrics()).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
    }
    expect(collectorsStarted).toBe(1);
  });

  it("finds the problems a scraper would: a family twice, a sample without its TYPE, a series twice", async () => {
    const text = await setup.rig.relay.metrics();
    const family = text.slice(0, text.indexOf("# HELP", 1));
    expect(expositionProblems(`${text}${family}`)).toContain("HELP formletter_relay_requests_total twice");
    expect(expositionProblems("stray_total 1\n")).toEqual(["stray_total has no TYPE before it"]);
    expect(expositionProblems("# HELP a_total a\n# TYPE a_total counter\na_total 1\na_total 2\n")).toEqual([
      "a_total twice",
    ]);
    expect((await promtool("# TYPE up_total gauge\nup_total 1\n")).code).not.toBe(0);
  });
});
