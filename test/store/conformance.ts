/** The store conformance suite and its row builders, as `formletter/store/conformance` ships them. */
export * from "../../src/store/conformance/index.js";

/** A reservation's columns as an older schema stored it: the whole result, as JSON text. */
export function reservationColumns(entry: {
  key: string;
  template: string;
  ticketId: string;
  runId: string;
  at: number;
  result: unknown;
}): [string, string, string, string, number, string] {
  return [entry.key, entry.template, entry.ticketId, entry.runId, entry.at, JSON.stringify(entry.result)];
}
