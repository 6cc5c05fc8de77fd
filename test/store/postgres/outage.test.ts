import { afterAll, beforeAll, describe } from "vitest";
import type { Store } from "../../../src/index.js";
import { postgresStore } from "../../../src/store/postgres/index.js";
import { outageScenarios } from "../../outbox/outage-scenarios.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

const available = postgresAvailable();
const retryUnavailableMs = 100;

describe.skipIf(!available)(
  "outages of the Postgres server, stopped for longer than retryUnavailableMs",
  () => {
    let cluster: Cluster;
    const stores: Store[] = [];
    beforeAll(async () => {
      cluster = await startCluster();
    }, 60_000);
    afterAll(async () => {
      for (const store of stores) await store.close().catch(() => undefined);
      await cluster?.destroy();
    });

    outageScenarios(
      {
        store: async () => {
          const store = postgresStore(
            { connectionString: cluster.url() },
            { schema: freshSchema("outage"), retryUnavailableMs },
          );
          await store.ready();
          stores.push(store);
          return store;
        },
        // The server is stopped (its connections closed) until the scenario starts it again.
        outage: async () => {
          await cluster.stopServer("fast");
          return { end: () => cluster.startServer() };
        },
      },
      60_000,
    );
  },
);
