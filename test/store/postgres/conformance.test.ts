import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { type PostgresStore, postgresStore } from "../../../src/store/postgres/index.js";
import { describeStoreConformance } from "../conformance.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

const available = postgresAvailable();

describe.skipIf(!available)("postgres", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  const dropSchema = async (schema: string) => {
    const admin = await cluster.admin();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await admin.end();
    }
  };

  // Each test gets an empty store: a new schema in the one cluster, dropped afterwards.
  describeStoreConformance("postgres", async () => {
    const schema = freshSchema("conformance");
    const store: PostgresStore = postgresStore({ connectionString: cluster.url() }, { schema });
    return {
      store,
      cleanup: async () => {
        await store.close().catch(() => undefined);
        await dropSchema(schema);
      },
    };
  });

  // A pool of your own, without pipelining: every statement waits for its reply, with the same results.
  describeStoreConformance("postgres on a pool passed in, not pipelined", async () => {
    const schema = freshSchema("conformance_pool");
    const pool = new pg.Pool({ connectionString: cluster.url(), max: 10 });
    pool.on("error", () => undefined);
    const store = postgresStore({ pool }, { schema });
    return {
      store,
      cleanup: async () => {
        await store.close().catch(() => undefined);
        await pool.end();
        await dropSchema(schema);
      },
    };
  });
});
