/**
 * What the spans cost when no tracer provider is registered (the API's no-op tracer): the span decide()
 * opens, alone, in CPU nanoseconds, beside the CPU time of a whole decision on the seller catalog.
 */
import { trace } from "@opentelemetry/api";
import { report } from "./measure.js";

const tracer = trace.getTracer("formletter", "bench");

/** CPU nanoseconds per call of `fn`, the best of 15 rounds of `calls` calls. */
function cpuNanoseconds(fn: () => unknown, calls: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 15; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, ((used.user + used.system) * 1000) / calls);
  }
  return best;
}

let sink = 0;
const noopSpan = () => {
  const span = tracer.startSpan("formletter.decide");
  if (span.isRecording()) sink++;
  span.end();
};
const empty = () => {
  sink++;
};

process.stdout.write("spans with no tracer provider registered (the API's no-op)\n");
const withSpan = cpuNanoseconds(noopSpan, 1_000_000);
const without = cpuNanoseconds(empty, 1_000_000);
report("decide()'s span: start, isRecording, end (CPU ns)", (withSpan - without).toFixed(1));
if (sink < 0) process.stdout.write("unreachable\n");
