import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { writeCommitTsconfig } from "./git-tsconfig.js";
import { CliError } from "./output.js";

/** A catalog module read from git: the file to load, and the folder to remove once it is loaded. */
export interface GitModule {
  readonly file: string;
  /**
   * `formletter` → the library this command runs: where the commit's tsconfig.json maps the name to
   * files of its own tree (a repository that holds the library), both sides still build their catalogs
   * with one library, as they do where it is an installed package. Other aliases keep the commit's.
   */
  readonly alias: Readonly<Record<string, string>>;
  /** The commit's path aliases, `formletter` names mapped as in `alias`: see `writeCommitTsconfig`. */
  readonly tsconfig: string;
  readonly commit: string;
  dispose(): void;
}

/** True for `git:REF:path`. */
export function isGitModule(spec: string): boolean {
  return spec.startsWith("git:");
}

// A revision as a person writes one (a branch, a tag, a hash, HEAD~1, origin/main^), never an option:
// it cannot start with "-", and holds no space, no ":" and nothing a shell or git would read as more.
const revision = /^[A-Za-z0-9_][A-Za-z0-9._/~^@{}+-]{0,199}$/;

/**
 * Reads `git:REF:path` (path from the repository's root): checks both parts, resolves REF to a commit
 * and materialises that commit's tree with `git archive` into a folder under the repository's
 * `node_modules/.cache`, so the module's relative imports find the files they had at that commit and
 * its bare imports (zod, formletter) resolve to the installed packages, as the head's do; path aliases
 * are the commit's tsconfig.json's, but for the library itself (see `alias` and `tsconfig`). Git is run
 * without a shell, each argument passed as it is and the revision after `--end-of-options`.
 */
export async function materialiseGitModule(spec: string, cwd: string = process.cwd()): Promise<GitModule> {
  const rest = spec.slice("git:".length);
  const colon = rest.indexOf(":");
  const ref = colon === -1 ? "" : rest.slice(0, colon);
  const path = colon === -1 ? "" : rest.slice(colon + 1);
  if (!revision.test(ref) || ref.includes(".."))
    throw new CliError(
      `${shown(spec)}: write git:REF:path with REF a branch, tag or commit (letters, digits and ._/~^@{}+-, not starting with "-")`,
    );
  const normal = posix.normalize(path);
  if (
    path === "" ||
    path.startsWith("-") ||
    path.startsWith("/") ||
    normal.startsWith("../") ||
    normal === ".." ||
    /[\u0000-\u001f\\]/.test(path)
  )
    throw new CliError(
      `${shown(spec)}: the path must be a file of the repository, from its root, as in git:main:templates/seller.ts`,
    );
  const root = (await git(["rev-parse", "--show-toplevel"], cwd, spec)).trim();
  const commit = (
    await git(
      ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
      root,
      spec,
      `no commit ${ref}`,
    )
  ).trim();
  await git(["cat-file", "-e", `${commit}:${normal}`], root, spec, `no file ${normal} at ${ref}`);
  const folder = scratchFolder(root, spec);
  const dispose = () => rmSync(folder, { recursive: true, force: true });
  try {
    await archiveInto(root, commit, folder, spec);
    const file = join(folder, ...normal.split("/"));
    // A symbolic link in the tree must not lead the module outside the commit's files.
    const real = existsSync(file) ? realpathSync(file) : "";
    if (!real.startsWith(realpathSync(folder) + sep))
      throw new CliError(`${shown(spec)}: ${normal} is not a file inside the tree of ${ref}`);
    const alias = runningLibrary();
    return { file, commit, alias, tsconfig: writeCommitTsconfig(folder, file, alias), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * The library this command is part of, as aliases: `formletter` to its entry and each subpath its
 * package exports to that subpath's entry, found beside the command (`index.js` files when built,
 * `index.ts` in source, where store, transport and core subpaths sit one folder deeper). A subpath alias
 * is needed for each: an alias also matches the names under it.
 */
function runningLibrary(): Record<string, string> {
  const library = fileURLToPath(new URL("..", import.meta.url));
  const found = (...names: string[]) =>
    names.map((name) => join(library, ...name.split("/"))).find((file) => existsSync(file));
  const entry = found("index.js", "index.ts");
  if (entry === undefined) return {};
  const alias: Record<string, string> = { formletter: entry };
  let exported: string[] = [];
  try {
    const manifest = JSON.parse(readFileSync(join(library, "..", "package.json"), "utf8"));
    if (manifest.name === "formletter") exported = Object.keys(manifest.exports ?? {});
  } catch {
    // No manifest beside the library: only its entry is aliased.
  }
  for (const key of exported) {
    const sub = key.slice(2);
    if (!key.startsWith("./") || sub === "" || sub === "package.json") continue;
    const file = found(
      `${sub}/index.js`,
      `${sub}/index.ts`,
      `store/${sub}/index.ts`,
      `transport/${sub}/index.ts`,
      `core/${sub}/index.ts`,
    );
    if (file !== undefined) alias[`formletter/${sub}`] = file;
  }
  return alias;
}

/**
 * A new folder under the repository's `node_modules/.cache` (bare imports resolve from there), or under
 * the system's temporary folder where there is no `node_modules` or it cannot be written.
 */
function scratchFolder(root: string, spec: string): string {
  if (existsSync(join(root, "node_modules"))) {
    try {
      const cache = join(root, "node_modules", ".cache");
      mkdirSync(cache, { recursive: true });
      return mkdtempSync(join(cache, "formletter-diff-"));
    } catch {
      // A read-only node_modules: the temporary folder still works for relative imports.
    }
  }
  try {
    return mkdtempSync(join(tmpdir(), "formletter-diff-"));
  } catch (error) {
    throw new CliError(
      `${shown(spec)}: cannot make a folder for the commit's files (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** Runs git with `args` (no shell) and returns its output; a failure is one CLI line naming `spec`. */
function git(args: readonly string[], cwd: string, spec: string, problem?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      out += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      err += text;
    });
    child.on("error", (error) => reject(new CliError(`${shown(spec)}: cannot run git (${error.message})`)));
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else
        reject(
          new CliError(
            `${shown(spec)}: ${problem ?? (err.trim().split("\n")[0] || `git ${args[0]} failed`)}`,
          ),
        );
    });
  });
}

/** `git archive --format=tar COMMIT | tar -x -C folder`, the two processes joined by a pipe, no shell. */
function archiveInto(root: string, commit: string, folder: string, spec: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn("git", ["archive", "--format=tar", commit], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const extract = spawn("tar", ["-x", "-f", "-", "-C", folder], { stdio: ["pipe", "ignore", "ignore"] });
    // A tar that died early closes its input: its exit code says so, the broken pipe adds nothing.
    extract.stdin.on("error", () => undefined);
    archive.stdout.pipe(extract.stdin);
    let failed = false;
    const fail = (what: string) => {
      if (failed) return;
      failed = true;
      reject(new CliError(`${shown(spec)}: cannot materialise the commit's files (${what})`));
    };
    archive.on("error", (error) => fail(`git: ${error.message}`));
    extract.on("error", (error) => fail(`tar: ${error.message}`));
    // Done once both have exited well: tar may end before git reports a failure, or the other way round.
    let closed = 0;
    const close = (name: string) => (code: number | null) => {
      if (code !== 0) fail(`${name} exited ${code}`);
      else if (++closed === 2 && !failed) resolve();
    };
    archive.on("close", close("git archive"));
    extract.on("close", close("tar"));
  });
}

function shown(spec: string): string {
  return JSON.stringify(spec.slice(0, 120));
}
