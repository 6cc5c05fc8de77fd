/**
 * The sample seller ticket (examples/data/seller-sample-ticket.json) and the handles a model would
 * choose on it, for the agent framework examples: a delivered order with its line, and an order that
 * has not shipped with its line.
 */

import { readFileSync } from "node:fs";
import { sellerCatalog } from "../templates/seller.js";

export const ticket = JSON.parse(
  readFileSync(new URL("./data/seller-sample-ticket.json", import.meta.url), "utf8"),
) as { readonly ticketId: string };

const handles = sellerCatalog.handles(ticket);

/** The delivered order 4504-6726 and its one line, a garden hose. */
export const delivered = {
  order: handles.get("orders", "ord_158570abf1a3"),
  item: handles.get("items", "lin_ea90c79134"),
};

/** The order 4505-3241, placed and not shipped, and its one line, a planter. */
export const placed = {
  order: handles.get("orders", "ord_b7dbcf383bc2"),
  item: handles.get("items", "lin_e8b821e008"),
};
