/**
 * Throwaway PostgreSQL clusters for the Postgres tests and benchmark: `initdb` in a temporary directory,
 * a server on a free loopback port with trust authentication, removed at the end. PostgreSQL refuses to
 * run as root, so as root the server runs as the `postgres` user.
 *
 * Binaries are looked up in $FORMLETTER_PG_BIN, then `pg_config --bindir`, then PATH, then
 * /usr/lib/postgresql/<version>/bin and /usr/local/pgsql/bin.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** How to make the Postgres tests run on a machine that skips them. */
export const howToEnable =
  "install PostgreSQL ≥ 13 (initdb and pg_ctl on PATH, under /usr/lib/postgresql/<version>/bin, or in $FORMLETTER_PG_BIN)";

/** The directory holding initdb, pg_ctl and postgres, or undefined when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const has = (dir: string | undefined): dir is string =>
    dir !== undefined && dir !== "" && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  const fromEnv = process.env.FORMLETTER_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== "") return has(fromEnv) ? fromEnv : undefined;
  try {
    const dir = execFileSync("pg_config", ["--bindir"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    if (has(dir.trim())) return dir.trim();
  } catch {
    // No pg_config: look further.
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (has(dir)) return dir;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions)
      if (has(join(debian, version, "bin"))) return join(debian, version, "bin");
  }
  return has("/usr/local/pgsql/bin") ? "/usr/local/pgsql/bin" : undefined;
}

/**
 * Whether the Postgres tests can run here. In CI (CI=true) a missing PostgreSQL is an error, not a skip:
 * the tests must run there. Elsewhere the first test file to find it missing says so, in one line.
 */
export function postgresAvailable(): boolean {
  const available = postgresBin() !== undefined;
  if (available) return true;
  if (process.env.CI === "true") throw new Error(`CI=true but PostgreSQL was not found: ${howToEnable}`);
  try {
    // Test files run in worker processes of one vitest run: a marker per run keeps it to one line.
    writeFileSync(join(tmpdir(), `formletter-pg-skipped-${process.ppid}`), "", { flag: "wx" });
    process.stderr.write(`Postgres tests skipped: PostgreSQL not found; to run them, ${howToEnable}.\n`);
  } catch {
    // Another test file of this run said it already.
  }
  return false;
}

export interface Cluster {
  readonly port: number;
  /** A connection string to `database` (default "postgres") as the superuser "postgres". */
  url(database?: string): string;
  /** A connected client for setting up and inspecting; the caller ends it. */
  admin(): Promise<pg.Client>;
  /** Stops the server; `mode` "immediate" is a crash (recovery runs on the next start). */
  stopServer(mode?: "fast" | "immediate"): Promise<void>;
  startServer(): Promise<void>;
  /** The server's process id while it runs (its backends are its children), from postmaster.pid. */
  serverPid(): number | undefined;
  /** Stops the server and deletes the cluster. */
  destroy(): Promise<void>;
}

export interface ClusterOptions {
  /**
   * Whether the server fsyncs. The tests crash processes and the server, never the machine, so the
   * page cache keeps what was written and fsync only costs time; the benchmark keeps it on.
   * @default false
   */
  readonly fsync?: boolean;
}

/** Creates and starts a cluster; throws if PostgreSQL is not installed. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL not found: ${howToEnable}`);
  const root = process.getuid?.() === 0;
  // As root, the server's files belong to "postgres", and the commands run as that user.
  const as = (command: string, args: readonly string[]): [string, string[]] =>
    root
      ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]]
      : [join(bin, command), [...args]];
  const exec = async (command: string, args: readonly string[]) => {
    const [file, argv] = as(command, args);
    try {
      await run(file, argv, { encoding: "utf8" });
    } catch (error) {
      const { stderr = "", stdout = "" } = error as { stderr?: string; stdout?: string };
      throw new Error(`${command} ${args.join(" ")} failed: ${stderr || stdout}`.trim(), { cause: error });
    }
  };

  const dir = mkdtempSync(join(tmpdir(), "formletter-pg-"));
  if (root) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  // A copy of a cluster made once by initdb: the same files, in a fraction of initdb's time.
  cpSync(await initializedCluster(bin, exec), data, { recursive: true, preserveTimestamps: true });
  if (root) execFileSync("chown", ["-R", "postgres", data]);
  chmodSync(data, 0o700);

  let port = 0;
  const pgCtl = (args: readonly string[]) =>
    exec("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), ...args]);
  const configure = (chosen: number) => {
    const settings = [
      `port = ${chosen}`,
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = ''",
      `fsync = ${options.fsync === true ? "on" : "off"}`,
      "max_connections = 200",
      "shared_buffers = '128MB'",
      // Crash recovery at the next start stays short.
      "max_wal_size = '1GB'",
    ];
    writeFileSync(join(data, "postgresql.auto.conf"), `${settings.join("\n")}\n`);
    if (root) execFileSync("chown", ["postgres", join(data, "postgresql.auto.conf")]);
  };
  // A free port can be taken between the look-up and the server's bind: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    configure(port);
    try {
      await pgCtl(["-w", "-t", "60", "start"]);
      break;
    } catch (error) {
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  let running = true;
  const cluster: Cluster = {
    port,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    admin: async () => {
      const client = new pg.Client({ connectionString: cluster.url() });
      client.on("error", () => undefined);
      await client.connect();
      return client;
    },
    stopServer: async (mode = "fast") => {
      await pgCtl(["-w", "-m", mode, "stop"]);
      running = false;
    },
    startServer: async () => {
      await pgCtl(["-w", "-t", "60", "start"]);
      running = true;
    },
    serverPid: () => {
      try {
        const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
      } catch {
        return undefined;
      }
    },
    destroy: async () => {
      if (running) await pgCtl(["-w", "-m", "immediate", "stop"]).catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

let initialized: Promise<string> | undefined;

/**
 * The data directory of a cluster just made by initdb, never started, kept in the temporary folder
 * for this PostgreSQL: made once (by the first test file that needs it), then copied for each cluster.
 */
function initializedCluster(
  bin: string,
  exec: (command: string, args: readonly string[]) => Promise<void>,
): Promise<string> {
  initialized ??= (async () => {
    const version = createHash("sha256")
      .update(bin)
      .update(readFileSync(join(bin, "initdb")))
      .digest("hex");
    const done = join(tmpdir(), `formletter-pg-initdb-${version.slice(0, 16)}`);
    if (existsSync(join(done, "PG_VERSION"))) return done;
    // Made aside and renamed into place whole, so a test file starting at the same time never copies half.
    const staging = mkdtempSync(join(tmpdir(), "formletter-pg-initdb-staging-"));
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres", staging]);
    const data = join(staging, "data");
    try {
      await exec("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
      try {
        renameSync(data, done);
      } catch (error) {
        // Another test file made it first.
        if (!existsSync(join(done, "PG_VERSION"))) throw error;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return done;
  })();
  return initialized;
}

/**
 * A free port below the system's ephemeral range (32768 and up on Linux), picked at random: the outage
 * tests stop and restart a server on its port, and a port the system handed out for `listen(0)` could be
 * given to another test file's server, running beside this one, while this one is stopped.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

let schemas = 0;

/** A schema name no other store of this process uses. */
export function freshSchema(prefix = "t"): string {
  schemas += 1;
  return `${prefix}_${process.pid}_${schemas}`;
}
