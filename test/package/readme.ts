/**
 * The README's boxes that the installed-package tests run as written, so a reader who copies them gets
 * what the tests checked.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { extractSnippets } from "../docs/snippets.js";
import { root } from "./scratch-project.js";

/** The README's text from `heading` (a whole line, e.g. `## Quick start`) to the next heading of any level. */
export function readmeSection(heading: string): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1)
    throw new Error(`README.md has no "${heading}" section; the installed-package tests run it`);
  const body = readme.slice(start + heading.length + 2);
  const next = body.search(/^#{1,6} /m);
  return next === -1 ? body : body.slice(0, next);
}

/** The quick start's TypeScript, as a reader copies it. */
export function quickStart(): string {
  return extractSnippets("README.md", readmeSection("## Quick start"))[0]?.code ?? "";
}

/** The shell commands of a section's first `sh` box, one a line, comments and blank lines left out. */
export function shellCommands(heading: string): string[] {
  const box = /^```(?:sh|bash|shell)\n([\s\S]*?)^```/m.exec(readmeSection(heading));
  return (box?.[1] ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** The quick start with its types stripped, for node to run where a reader would use tsx. */
export function quickStartJavaScript(): string {
  return ts.transpileModule(quickStart(), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/**
 * Code that carries the quick start on (it reads its `catalog`, `ticket` and `order`): the same proposal
 * through an outbox on `store` (a source expression), awaited at the top level as a script does, then one
 * JSON line with the outcome and the recipients the transport was handed.
 */
export const quickStartThroughOutbox = (store: string): string => `
import * as formletterRuntime from "formletter";
const transport = formletterRuntime.memoryTransport();
const outbox = formletterRuntime.createOutbox({ catalog, load: () => ticket, store: ${store}, transports: { email: transport } });
const handled = await outbox.handle({ ticketId: ticket.ticketId, output: { template: "tracking_request", slots: { order } }, runId: "run-1" });
await outbox.close();
console.log(JSON.stringify({ handled: handled.decision.outcome, sent: transport.sent.map((sent) => sent.message.to) }));
`;
