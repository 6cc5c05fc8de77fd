/** A catalog module written to a temporary folder, served by `formletter preview`, and a browser for it. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { type PreviewServer, startPreviewServer } from "../../src/cli/preview-server.js";
import { readSampleTickets } from "../../src/cli/preview-tickets.js";
import type { Catalog } from "../../src/index.js";
import { launchChromium } from "./browser.js";

export interface ServedPreview {
  readonly directory: string;
  readonly moduleFile: string;
  /** The module's catalog, imported here too, to compare the page with. */
  readonly catalog: Catalog;
  readonly server: PreviewServer;
  /** Undefined when the browser checks are skipped. */
  readonly browser: Browser | undefined;
  close(): Promise<void>;
}

/** Writes `moduleText` as `name` and `tickets` as the sample records, and serves the preview on port 0. */
export async function servePreview(
  name: string,
  moduleText: string,
  tickets: readonly unknown[],
  withBrowser: boolean,
): Promise<ServedPreview> {
  // Chromium starts while the module is written, imported and served.
  const launching = withBrowser ? launchChromium() : undefined;
  launching?.catch(() => undefined);
  const directory = mkdtempSync(join(tmpdir(), "formletter-preview-"));
  const moduleFile = join(directory, name);
  writeFileSync(moduleFile, moduleText);
  const samples = join(directory, "samples.json");
  writeFileSync(samples, JSON.stringify(tickets));
  let catalog: Catalog;
  let server: PreviewServer;
  try {
    ({ catalog } = (await import(pathToFileURL(moduleFile).href)) as { catalog: Catalog });
    server = await startPreviewServer({
      file: moduleFile,
      tickets: readSampleTickets({ records: samples }),
      limit: 500,
      port: 0,
    });
  } catch (error) {
    await (await launching?.catch(() => undefined))?.close();
    throw error;
  }
  let browser: Browser | undefined;
  try {
    browser = await launching;
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    directory,
    moduleFile,
    catalog,
    server,
    browser,
    async close() {
      await browser?.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
