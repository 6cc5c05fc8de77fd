import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../", import.meta.url));

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
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

/**
 * Builds and packs formletter, then installs the tarball with zod into a new project outside this
 * checkout, as a user's `npm install formletter zod` would, offline: the dependencies come as tarballs
 * made from this checkout's node_modules. The optional peers (better-sqlite3, pg, nodemailer) are not
 * installed, and nothing above the project's folder can provide them.
 */
export async function installPackedPackage(): Promise<string> {
  await run("npm", ["run", "build"], { cwd: root });
  const project = mkdtempSync(join(tmpdir(), "formletter-installed-"));
  const tarballs = join(project, "tarballs");
  mkdirSync(tarballs);
  const { stdout } = await run("npm", ["pack", "--pack-destination", tarballs, "--silent"], { cwd: root });
  const packed = [`./tarballs/${stdout.trim().split("\n").at(-1)}`];
  const runtime = [...Object.keys(manifestOf(root).dependencies ?? {}), "zod"];
  for (const directory of dependencyClosure(runtime)) {
    const { name, version } = manifestOf(directory);
    const file = `${name.replace(/[@/]/g, "_")}-${version}.tgz`;
    // npm's tarball layout: every file under "package/".
    await run("tar", ["czf", join(tarballs, file), "-C", directory, "--transform", "s,^\\.,package,", "."]);
    packed.push(`./tarballs/${file}`);
  }
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "scratch", private: true, type: "module" }),
  );
  await run(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", ...packed],
    { cwd: project },
  );
  return project;
}
