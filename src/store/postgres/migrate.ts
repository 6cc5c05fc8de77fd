import { FormletterError } from "../../core/errors.js";
import type { Connection } from "./connection.js";
import { migrationLock, migrations, quoteIdentifier, schemaVersion } from "./migrations.js";

/**
 * Brings `schema` to this build's version in one transaction, under an advisory lock: two instances
 * opening a new schema at once take turns, and the second finds the work done. DDL is transactional in
 * Postgres, so a migration that fails leaves the schema as it was. A schema a newer formletter wrote is
 * refused and left alone.
 */
export async function migrate(conn: Connection, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  await conn.write("BEGIN");
  try {
    await conn.read(`SELECT ${migrationLock(schema)}`);
    // Looked up before anything is created: an application role without the right to create schemas
    // can open a schema an administrator prepared.
    const [found] = await conn.read<{ schema: boolean; table: boolean }>(
      "SELECT to_regnamespace($1) IS NOT NULL AS schema, to_regclass($2) IS NOT NULL AS table",
      [s, `${s}.migrations`],
    );
    let version = 0;
    if (found?.table) {
      const [row] = await conn.read<{ version: number }>(
        `SELECT coalesce(max(version), 0) AS version FROM ${s}.migrations`,
      );
      version = row?.version ?? 0;
    }
    if (version > schemaVersion) {
      throw new FormletterError(
        "store_invalid",
        `postgresStore: schema "${schema}" has version ${version}, newer than this formletter's ${schemaVersion}; upgrade formletter to open it`,
      );
    }
    if (!found?.schema) await conn.read(`CREATE SCHEMA ${s}`);
    if (!found?.table) {
      await conn.read(
        `CREATE TABLE ${s}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    }
    for (let next = version; next < schemaVersion; next++) {
      await conn.read((migrations[next] as (schema: string) => string)(schema));
      await conn.read(`INSERT INTO ${s}.migrations (version) VALUES ($1)`, [next + 1]);
    }
    await conn.commit();
  } catch (error) {
    if (!conn.committing) await conn.rollback();
    throw error;
  }
}
