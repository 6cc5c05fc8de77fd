import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { installedProject, run } from "./packed-install.js";

export {
  installedProject,
  packFormletter,
  requiredPeers,
  root,
  run,
  scratchProject,
} from "./packed-install.js";

/**
 * A script for a subpath's packed-package test, in both module systems: `imports` maps each module to
 * the names taken from it, written as ES `import` lines or CommonJS `require` lines above `body`, which
 * defines an async `main()`. Rows for `it.each`: what runs it, the file name, the source.
 */
export function inBothModuleSystems(
  name: string,
  imports: Readonly<Record<string, readonly string[]>>,
  body: string,
): readonly (readonly [string, string, string])[] {
  const modules = Object.entries(imports);
  const esm = modules.map(([from, names]) => `import { ${names.join(", ")} } from "${from}";`);
  const cjs = modules.map(([from, names]) => `const { ${names.join(", ")} } = require("${from}");`);
  return [
    ["an ES module", `${name}.mjs`, `${esm.join("\n")}\n${body}\nawait main();\n`],
    ["CommonJS", `${name}.cjs`, `${cjs.join("\n")}\n${body}\nmain();\n`],
  ];
}

/** What {@link partnerOutboxSource}'s script takes from formletter and zod. */
export const partnerOutboxImports = {
  zod: ["z"],
  formletter: [
    "createCatalog",
    "createOutbox",
    "defineRecords",
    "defineTemplate",
    "memoryStore",
    "memoryTransport",
  ],
} as const;

/**
 * Script source defining `catalog` (one template, `payout`, to a partner's e-mail, with no slot for the
 * model to fill), `transport` (in memory) and `outbox` (in memory, every ticket with one contact,
 * ana@partner.example); `approval` puts the template behind a person's approval.
 */
export function partnerOutboxSource(options: { readonly approval: boolean }): string {
  return `
const records = defineRecords({ contacts: z.object({ id: z.string(), email: z.email() }) });
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "payout", description: "Tell the partner their payout was released", audience: "partner",
    effect: "${options.approval ? "irreversible" : "informational"}", channel: "email",
    to: records.slot.ref("contacts", { show: "email" }), subject: "Payout released",
    body: "Your payout was released.", slots: {}, limits: { perTicket: 1, perDay: 10 },${options.approval ? ' approval: "human",' : ""}
  }),
]);
const transport = memoryTransport();
const outbox = createOutbox({
  catalog, store: memoryStore(), transports: { email: transport },
  load: (ticketId) => ({ ticketId, contacts: [{ id: "c1", email: "ana@partner.example" }] }),
});
`;
}

/** A test file's place in the shared installed project: see {@link usePackedPackage}. */
export interface PackedProject {
  /** The installed project, holding node_modules/formletter and node_modules/.bin/formletter. */
  readonly project: string;
  /** The test file's own folder inside the project, where its files are written and run. */
  readonly folder: string;
  /** Writes `source` to `name` in the folder, runs it with node there, and returns what it printed. */
  runScript(name: string, source: string): Promise<string>;
}

/**
 * The packed package installed with `optionalPeers` (see {@link installedProject}) before the test
 * file's tests, shared with the other files asking for the same peers, and a folder of the file's own
 * inside it (Node finds the project's node_modules from there), deleted after them.
 */
export function usePackedPackage(optionalPeers: readonly string[] = []): PackedProject {
  let installed: { project: string; folder: string } | undefined;
  beforeAll(async () => {
    const project = await installedProject(optionalPeers);
    installed = { project, folder: mkdtempSync(join(project, "test-")) };
  }, 900_000);
  afterAll(() => {
    if (installed !== undefined) rmSync(installed.folder, { recursive: true, force: true });
  });
  const ready = () => {
    if (installed === undefined) throw new Error("usePackedPackage: the package is not installed yet");
    return installed;
  };
  return {
    get project() {
      return ready().project;
    },
    get folder() {
      return ready().folder;
    },
    async runScript(name, source) {
      const { folder } = ready();
      writeFileSync(join(folder, name), source);
      const { stdout } = await run(process.execPath, [name], { cwd: folder });
      return stdout.trim();
    },
  };
}
