/**
 * The packed package installed into projects outside this checkout, as a user's `npm install formletter
 * zod` would, offline: the build and `npm pack` run once for all test files, each dependency folder of
 * this checkout is made into a tarball once, and each set of optional peers is installed once, then
 * shared by the test files that ask for it. Everything is cached under the system's temporary folder,
 * keyed by what it was made from, so a changed source or dependency makes it anew.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** The caches of this checkout (two checkouts on one machine keep theirs apart). */
const cacheFolder = (kind: string) =>
  join(tmpdir(), `formletter-${kind}-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`);

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly bundleDependencies?: readonly string[];
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

/** The packages in a folder's own node_modules (scoped ones as `@scope/name`). */
function nestedPackages(directory: string): string[] {
  const modules = join(directory, "node_modules");
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((entry) => !entry.startsWith("."))
    .flatMap((entry) =>
      entry.startsWith("@") ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry],
    )
    .filter((name) => existsSync(join(modules, name, "package.json")));
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

/** Runs `work` holding a lock folder, so test files running side by side make a cached thing once. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is older than any build or install takes.
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
 * The build `npm pack` packs: tsup.config.ts's bundles, source maps and shebang, into `outDir` rather than
 * this checkout's dist/ (which other tools may be reading). Type declarations are left out: they take
 * nearly all of a build's time, nothing a packed-package test runs reads them, and `npm run lint:pkg`
 * checks them on the package as published.
 */
const buildScript = `import { build } from "tsup";
await build({ dts: false, silent: true, outDir: process.argv[1] });`;

/**
 * Copies formletter's packed tarball into `destination` and returns its path. The build and `npm pack`
 * run once for all the test files of a run, and again only when a source changed.
 */
export async function packFormletter(destination: string): Promise<string> {
  const cache = cacheFolder("pack");
  return withLock(`${cache}.lock`, async () => {
    const fingerprint = sourceFingerprint();
    const stamp = join(cache, "fingerprint");
    const cached = () => readdirSync(cache).find((file) => file.endsWith(".tgz"));
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== fingerprint || cached() === undefined) {
      rmSync(cache, { recursive: true, force: true });
      const staging = join(cache, "package");
      mkdirSync(staging, { recursive: true });
      await run(process.execPath, ["--input-type=module", "-e", buildScript, join(staging, "dist")], {
        cwd: root,
      });
      for (const file of ["package.json", "README.md", "LICENSE"])
        copyFileSync(join(root, file), join(staging, file));
      await run("npm", ["pack", "--pack-destination", cache, "--silent"], { cwd: staging });
      rmSync(staging, { recursive: true, force: true });
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

/** The folder of the package whose node_modules holds `directory`, or undefined at the top level. */
function holder(directory: string): string | undefined {
  const parent = dirname(directory);
  const modules = basename(parent).startsWith("@") ? dirname(parent) : parent;
  return modules === join(root, "node_modules") ? undefined : dirname(modules);
}

/** A dependency as npm is handed it: its folder, and the packages nested in it that travel inside it. */
interface Handed {
  readonly directory: string;
  readonly bundled: readonly string[];
}

/**
 * The closure as npm is handed it: one folder a package name (the hoisted one where there is one), as
 * a user's npm would hoist it. A folder of another version, nested where this checkout's npm put it,
 * travels inside the folder holding it, listed as bundled: npm installs it from there and never asks
 * the registry for that version.
 */
function handedToNpm(directories: readonly string[]): Handed[] {
  const depth = (directory: string) => relative(root, directory).split("node_modules").length;
  const chosen = new Map<string, string>();
  for (const directory of [...directories].sort((left, right) => depth(left) - depth(right))) {
    const { name } = manifestOf(directory);
    if (!chosen.has(name)) chosen.set(name, directory);
  }
  const bundled = new Map<string, Set<string>>();
  for (const directory of directories) {
    const { name, version } = manifestOf(directory);
    const hoisted = chosen.get(name) ?? directory;
    if (manifestOf(hoisted).version === version) continue;
    const parent = holder(directory);
    if (parent === undefined || chosen.get(manifestOf(parent).name) !== parent)
      throw new Error(
        `${relative(root, directory)} sits in a package folder that is itself nested, so no tarball can carry it: run \`npm dedupe\` in this checkout`,
      );
    bundled.set(parent, (bundled.get(parent) ?? new Set()).add(name));
  }
  return [...chosen.values()].map((directory) => ({
    directory,
    bundled: [...(bundled.get(directory) ?? [])].sort(),
  }));
}

/**
 * A dependency folder of this checkout as an npm tarball (every file under "package/"), made once into
 * the shared cache: its bundled packages inside, with its manifest listing them, and no other nested one.
 */
async function dependencyTarball({ directory, bundled }: Handed): Promise<string> {
  const manifest = manifestOf(directory);
  const inside = bundled.map(
    (name) => `${name}@${manifestOf(join(directory, "node_modules", name)).version}`,
  );
  const key = createHash("sha256").update(inside.join("\n")).digest("hex").slice(0, 8);
  const cache = cacheFolder("dependencies");
  const tarball = join(cache, `${manifest.name.replace(/[@/]/g, "_")}-${manifest.version}-${key}.tgz`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(cache, { recursive: true });
  // Written beside, then renamed: files making the same tarball at once each rename a whole one.
  const partial = mkdtempSync(join(cache, "partial-"));
  try {
    const file = join(partial, "package.tgz");
    const left = nestedPackages(directory).filter((name) => !bundled.includes(name));
    const options = ["--anchored", ...left.map((name) => `--exclude=./node_modules/${name}`)];
    const members = ["-C", directory, "--transform", "s,^\\.,package,", "."];
    if (bundled.length > 0) {
      writeFileSync(
        join(partial, "bundled.json"),
        JSON.stringify({
          ...manifest,
          bundleDependencies: [...(manifest.bundleDependencies ?? []), ...bundled],
        }),
      );
      options.push("--exclude=./package.json", "--transform", "s,^bundled\\.json$,package/package.json,");
      members.push("-C", partial, "bundled.json");
    }
    await run("tar", ["czf", file, ...options, ...members]);
    renameSync(file, tarball);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return tarball;
}

/** An installed project unused this long was made from an older source: removed at the next install. */
const staleAfter = 60 * 60_000;

/**
 * The packed package installed with its required peers into a project outside this checkout, as a
 * user's `npm install formletter zod` would, offline: the dependencies come as tarballs made from this
 * checkout's node_modules. The optional peers (better-sqlite3, pg, nodemailer) are not installed, but
 * those named in `optionalPeers` (with what they depend on), and nothing above the project's folder can
 * provide the others. One project for each set of optional peers is installed and shared, read-only:
 * a test writes its files into a folder of its own inside it.
 */
export async function installedProject(optionalPeers: readonly string[] = []): Promise<string> {
  const staging = mkdtempSync(join(tmpdir(), "formletter-pack-copy-"));
  try {
    const packed = await packFormletter(staging);
    const runtime = [
      ...Object.keys(manifestOf(root).dependencies ?? {}),
      ...Object.keys(requiredPeers()),
      ...optionalPeers,
    ];
    const dependencies: string[] = [];
    for (const handed of handedToNpm(dependencyClosure(runtime)))
      dependencies.push(await dependencyTarball(handed));
    const key = createHash("sha256")
      .update(readFileSync(packed))
      .update(dependencies.map((file) => basename(file)).join("\n"))
      .digest("hex")
      .slice(0, 16);
    const projects = cacheFolder("installed");
    mkdirSync(projects, { recursive: true });
    const project = join(projects, key);
    const complete = join(project, ".installed");
    await withLock(`${project}.lock`, async () => {
      if (existsSync(complete)) return;
      rmSync(project, { recursive: true, force: true });
      mkdirSync(join(project, "tarballs"), { recursive: true });
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "scratch", private: true, type: "module" }),
      );
      const tarball = join(project, "tarballs", basename(packed));
      copyFileSync(packed, tarball);
      await run(
        "npm",
        [
          "install",
          "--offline",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          "--loglevel=error",
          `./tarballs/${basename(tarball)}`,
          ...dependencies,
        ],
        { cwd: project },
      );
      writeFileSync(complete, "");
      for (const other of readdirSync(projects)) {
        const stamp = join(projects, other, ".installed");
        const used = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
        if (other !== key && used !== undefined && Date.now() - used > staleAfter)
          rmSync(join(projects, other), { recursive: true, force: true });
      }
    });
    const now = new Date();
    utimesSync(complete, now, now);
    return project;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
