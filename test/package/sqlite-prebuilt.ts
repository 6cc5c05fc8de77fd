/**
 * better-sqlite3's native binary, as the prebuilt tarball its install script (`prebuild-install ||
 * node-gyp rebuild --release`) looks for before downloading one or compiling: made from this checkout's
 * own build, for the same version and this Node's ABI. A project installing better-sqlite3 with
 * {@link localPrebuildEnvironment} in its environment has the binary unpacked by that script, so the
 * script must still run (npm's approval of it is still needed), but nothing is compiled.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { root } from "./packed-install.js";

const run = promisify(execFile);
const checkout = join(root, "node_modules", "better-sqlite3");
const binary = join("build", "Release", "better_sqlite3.node");
const cache = join(root, "node_modules", ".cache", "formletter-test-prebuilds");

/**
 * The environment that points better-sqlite3's install script at a folder holding the prebuilt tarball
 * for this checkout's version, made once (kept for later runs; the file name carries the version and
 * ABI). Empty when this checkout has no built binary: the install then downloads or compiles one.
 */
export async function localPrebuildEnvironment(): Promise<Record<string, string>> {
  if (!existsSync(join(checkout, binary))) return {};
  const { name, version } = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  // prebuild-install's name for the download, whose basename it looks for in the local folder first
  // (glibc Linux, macOS and Windows name no libc).
  const tarball = join(
    cache,
    `${name}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
  );
  if (!existsSync(tarball)) {
    mkdirSync(cache, { recursive: true });
    // Made beside and renamed: runs making it at once each rename a whole one.
    const partial = mkdtempSync(join(cache, "partial-"));
    try {
      const file = join(partial, "prebuilt.tar.gz");
      await run("tar", ["czf", file, "-C", checkout, binary]);
      renameSync(file, tarball);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { [`npm_config_${name.replace(/[^a-zA-Z0-9]/g, "_")}_local_prebuilds`]: cache };
}
