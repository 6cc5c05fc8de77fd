import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../../src/cli/load-catalog.js";
import type { Catalog } from "../../src/core/decision/catalog.js";
import { type ReviewCatalogOptions, reviewCatalogModule } from "../fixtures/review-catalogs.js";

const library = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const zod = createRequire(import.meta.url).resolve("zod");

/** A temp folder of catalog modules and history files for the review tests; each module in its own file. */
export class ReviewWorkspace {
  readonly directory = mkdtempSync(join(tmpdir(), "formletter-review-"));
  #written = 0;

  /** Writes a catalog module varied by `options`, and returns its path. */
  module(options: ReviewCatalogOptions = {}): string {
    this.#written += 1;
    const file = join(this.directory, `catalog-${this.#written}.ts`);
    writeFileSync(file, reviewCatalogModule(library, zod, options));
    return file;
  }

  /** Writes and loads a catalog module. */
  async catalog(options: ReviewCatalogOptions = {}): Promise<{ file: string; catalog: Catalog }> {
    const file = this.module(options);
    return { file, catalog: (await loadCatalog(file)).catalog };
  }

  /** Writes lines (objects as JSON, strings as they are) to a file. */
  lines(name: string, lines: readonly unknown[]): string {
    const file = join(this.directory, name);
    writeFileSync(
      file,
      `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`,
    );
    return file;
  }

  remove(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** One ticket's records: two orders (amounts 40 and 400) and one seller. */
export function ticketRecords(ticketId: string, name = "4471") {
  return {
    ticketId,
    orders: [
      { id: `${ticketId}-a`, number: `${name}-1`, total: "40.00", amount: 40, currency: "EUR" },
      { id: `${ticketId}-b`, number: `${name}-2`, total: "400.00", amount: 400, currency: "EUR" },
    ],
    sellers: [{ id: `${ticketId}-s`, email: "shop@seller.example", backupEmail: "backup@seller.example" }],
  };
}

/**
 * A history of `count` tickets, each line naming one of its orders (alternately the small and the large)
 * in the order note, every fourth one asking for a refund instead.
 */
export function historyLines(catalog: Catalog, count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const ticketId = `T-${index + 1}`;
    const records = ticketRecords(ticketId);
    const handles = catalog.handles(records);
    const order = handles.get("orders", `${ticketId}-${index % 2 === 0 ? "a" : "b"}`);
    const template = index % 4 === 3 ? "refund_order" : "order_note";
    return { ticketId, records, output: { template, slots: { order } }, tags: { category: "orders" } };
  });
}
