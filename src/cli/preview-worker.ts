/**
 * The preview's catalog worker: loads one version of the catalog module and renders its pages. A
 * worker starts with empty module caches, so each version it loads is the module graph as it is on disk
 * now (the catalog and every file it imports), and ending the worker frees all of it.
 */
import { basename } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { loadCatalog } from "./load-catalog.js";
import { recordLoadedFiles } from "./loaded-files.js";
import type { FromWorker, PageRequest, WorkerSetup } from "./preview-catalog.js";
import { selectedTicket, ticketLinks } from "./preview-model.js";
import { renderPreviewPage } from "./preview-page.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function run(port: NonNullable<typeof parentPort>, setup: WorkerSetup): Promise<void> {
  const send = (message: FromWorker) => port.postMessage(message);
  const recording = recordLoadedFiles();
  let catalog: Awaited<ReturnType<typeof loadCatalog>>["catalog"];
  try {
    catalog = (await loadCatalog(setup.file, setup.exportName)).catalog;
  } catch (error) {
    send({ kind: "failed", problem: messageOf(error), files: recording.stop() });
    return;
  }
  // The version is the loaded catalog's own: it names exactly the texts this worker renders.
  send({ kind: "loaded", version: catalog.version, files: recording.stop() });
  port.on("message", (request: PageRequest) => {
    try {
      const html = renderPreviewPage({
        title: `Catalog preview: ${basename(setup.file)}`,
        catalog,
        tickets: ticketLinks(catalog, setup.tickets),
        selected: selectedTicket(catalog, setup.tickets, request.index, setup.limit),
        warning: request.warning,
        mode: request.mode,
        link: (ticket) => `/?ticket=${ticket}`,
      });
      send({ kind: "page", id: request.id, html });
    } catch (error) {
      send({ kind: "page-failed", id: request.id, problem: messageOf(error) });
    }
  });
}

if (parentPort !== null) void run(parentPort, workerData as WorkerSetup);
