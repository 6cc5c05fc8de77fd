import { snippet } from "../transport/snippet.js";

/**
 * A ticket's records from the loader, checked to be that ticket's: a loader that throws, or returns
 * another ticket's records (a cache keyed wrongly), gives a problem, never records to decide on or show.
 */
export async function loadRecords(
  load: (ticketId: string) => unknown,
  ticketId: string,
): Promise<{ ok: true; records: unknown } | { ok: false; problem: string }> {
  let records: unknown;
  try {
    records = await load(ticketId);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `the record loader threw: ${snippet(reason, 200)}` };
  }
  const loadedId =
    typeof records === "object" && records !== null
      ? (records as { ticketId?: unknown }).ticketId
      : undefined;
  if (loadedId !== ticketId) {
    return {
      ok: false,
      problem: `the record loader returned records of another ticket (or none) for ${ticketId}`,
    };
  }
  return { ok: true, records };
}
