import type { Catalog } from "../core/decision/catalog.js";
import { previewTicket } from "../core/preview/preview.js";
import type { PreviewPage, TicketLink } from "./preview-page.js";
import type { SampleTickets } from "./preview-tickets.js";

/**
 * The chosen ticket's preview and the labels of its records by handle. The preview runs through the
 * loaded catalog's own `decide`, so a catalog built with another copy of formletter is shown as it decides.
 */
export function selectedTicket(
  catalog: Catalog,
  tickets: SampleTickets,
  index: number,
  limit: number,
): PreviewPage["selected"] {
  if (index < 0 || index >= tickets.records.length) return undefined;
  const records = tickets.records[index];
  const preview = previewTicket(catalog, records, { limit });
  const labels = new Map<string, string>();
  if (preview.ok) {
    try {
      for (const entry of catalog.handles(records).entries) labels.set(entry.handle, entry.label);
    } catch {
      // A label callback that throws leaves the handles unlabelled; the messages are still shown.
    }
  }
  return { index, preview, labels };
}

/** Collections named in a ticket's line, and characters of each label: enough to tell tickets apart. */
const shownCollections = 2;
const labelChars = 60;

const listed = new WeakMap<Catalog, WeakMap<SampleTickets, readonly TicketLink[]>>();

/**
 * The ticket list, each ticket named by its id and its records' labels (the labels the model sees, built
 * in code). Computed once per loaded catalog: label callbacks are the catalog's code and may be slow.
 */
export function ticketLinks(catalog: Catalog, tickets: SampleTickets): readonly TicketLink[] {
  let byTickets = listed.get(catalog);
  if (byTickets === undefined) {
    byTickets = new WeakMap();
    listed.set(catalog, byTickets);
  }
  const known = byTickets.get(tickets);
  if (known !== undefined) return known;
  const links = tickets.ids.map((id, index) => ({ id, about: aboutTicket(catalog, tickets.records[index]) }));
  byTickets.set(tickets, links);
  return links;
}

function aboutTicket(catalog: Catalog, records: unknown): string {
  let entries: ReturnType<Catalog["handles"]>["entries"];
  try {
    entries = catalog.handles(records).entries;
  } catch {
    // Invalid records, or a label callback that throws: the ticket's page says which.
    return "records invalid or not labelled";
  }
  if (entries.length === 0) return "no records";
  const firsts = new Map<string, string>();
  for (const entry of entries)
    if (!firsts.has(entry.collection) && firsts.size < shownCollections)
      firsts.set(entry.collection, cut(entry.label));
  const total = `${entries.length} record${entries.length === 1 ? "" : "s"}`;
  return `${[...firsts.values()].join("; ")} (${total})`;
}

/** Cut by code points, so a label is never left with half a surrogate pair. */
function cut(label: string): string {
  const chars = Array.from(label);
  return chars.length > labelChars ? `${chars.slice(0, labelChars - 1).join("")}…` : label;
}
