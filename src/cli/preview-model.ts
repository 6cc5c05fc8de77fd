import type { Catalog } from "../core/decision/catalog.js";
import { previewTicket } from "../core/preview/preview.js";
import type { PreviewPage } from "./preview-page.js";
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
