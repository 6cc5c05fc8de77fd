import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";

export const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../", import.meta.url));

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestOf = (directory: string): Manifest =>
  JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as Manifest;

/** Where Node would find `name` from `from`: the nearest node_modules up the tree. */
function installed(name: string, from: string): string | undefined {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

/**
 * The installed folders of `names` and everything they depend on (optional dependencies only when
 * present): what `npm install formletter zod` would bring, taken from this checkout's node_modules.
 */
function dependencyClosure(names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const directory = installed(name, from);
    if (directory === undefined) {
      if (optional) return;
      throw new Error(`${name} is not installed in this checkout; run npm install`);
    }
    if (found.has(directory)) return;
    found.add(directory);
    const manifest = manifestOf(directory);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, directory, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {}))
      visit(dependency, directory, true);
  };
  for (const name of names) visit(name, root, false);
  return [...found];
}

/** The peers a user must install beside formletter (zod, the OpenTelemetry API), with their ranges. */
export function requiredPeers(): Record<string, string> {
  const { peerDependencies = {}, peerDependenciesMeta = {} } = manifestOf(root);
  return Object.fromEntries(
    Object.entries(peerDependencies).filter(([name]) => peerDependenciesMeta[name]?.optional !== true),
  );
}

/** What the packed package is built from: a change to any of these files makes the tarball stale. */
function sourceFingerprint(): string {
  const hash = createHash("sha256");
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
      return;
    }
    hash.update(`${relative(root, path)}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const input of [
    "src",
    "package.json",
    "tsup.config.ts",
    "subpaths.ts",
    "tsconfig.json",
    "LICENSE",
    "README.md",
  ])
    visit(join(root, input));
  return hash.digest("hex");
}

/** Runs `work` holding a lock folder, so test files running side by side build and pack one at a time. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is older than any build takes.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Copies formletter's packed tarball into `destination` and returns its path. The build (a minute and
 * more) and `npm pack` run once for all the test files of a run, and again only when a source changed.
 */
export async function packFormletter(destination: string): Promise<string> {
  const cache = join(
    tmpdir(),
    `formletter-pack-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`,
  );
  return withLock(`${cache}.lock`, async () => {
    const fingerprint = sourceFingerprint();
    const stamp = join(cache, "fingerprint");
    const cached = () => readdirSync(cache).find((file) => file.endsWith(".tgz"));
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== fingerprint || cached() === undefined) {
      rmSync(cache, { recursive: true, force: true });
      mkdirSync(cache, { recursive: true });
      await run("npm", ["run", "build"], { cwd: root });
      await run("npm", ["pack", "--pack-destination", cache, "--silent"], { cwd: root });
      writeFileSync(stamp, fingerprint);
    }
    const tarball = join(cache, cached() ?? "");
    const copy = join(destination, basename(tarball));
    copyFileSync(tarball, copy);
    return copy;
  });
}

/** A new folder outside this checkout holding an ESM `package.json`, as `npm init` and `"type": "module"` make. */
export function scratchProject(prefix: string): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "scratch", private: true, type: "module" }),
  );
  return project;
}

/**
 * Packs formletter, then installs the tarball with its required peers into a new project outside this
 * checkout, as a user's `npm install formletter zod` would, offline: the dependencies come as tarballs
 * made from this checkout's node_modules. The optional peers (better-sqlite3, pg, nodemailer) are not
 * installed, but those named in `optionalPeers` (with what they depend on), and nothing above the
 * project's folder can provide the others.
 */
export async function installPackedPackage(optionalPeers: readonly string[] = []): Promise<string> {
  const project = scratchProject("formletter-installed-");
  const tarballs = join(project, "tarballs");
  mkdirSync(tarballs);
  const packed = [`./tarballs/${basename(await packFormletter(tarballs))}`];
  const runtime = [
    ...Object.keys(manifestOf(root).dependencies ?? {}),
    ...Object.keys(requiredPeers()),
    ...optionalPeers,
  ];
  for (const directory of dependencyClosure(runtime)) {
    const { name, version } = manifestOf(directory);
    const file = `${name.replace(/[@/]/g, "_")}-${version}.tgz`;
    // npm's tarball layout: every file under "package/".
    await run("tar", ["czf", join(tarballs, file), "-C", directory, "--transform", "s,^\\.,package,", "."]);
    packed.push(`./tarballs/${file}`);
  }
  await run(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", ...packed],
    { cwd: project },
  );
  return project;
}

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

/**
 * The packed package installed with `optionalPeers` into a project of its own before the test file's
 * tests (see {@link installPackedPackage}), deleted after them, and a way to run a script in it.
 */
export function usePackedPackage(optionalPeers: readonly string[]): {
  /** Writes `source` to `name` in the project, runs it with node there, and returns what it printed. */
  runScript(name: string, source: string): Promise<string>;
} {
  let project: string | undefined;
  beforeAll(async () => {
    project = await installPackedPackage(optionalPeers);
  }, 600_000);
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });
  return {
    async runScript(name, source) {
      if (project === undefined) throw new Error("usePackedPackage: the package is not installed yet");
      writeFileSync(join(project, name), source);
      const { stdout } = await run(process.execPath, [name], { cwd: project });
      return stdout.trim();
    },
  };
}
