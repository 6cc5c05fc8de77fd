import { afterAll, afterEach, beforeAll, beforeEach, describe } from "vitest";
import { type PostgresStore, postgresStore } from "../../../src/store/postgres/index.js";
import { versionScenarios } from "../../outbox/version-scenarios.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

describe.skipIf(!postgresAvailable())("versions in the outbox on the postgres store", () => {
  let cluster: Cluster;
  let current: PostgresStore | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });
  beforeEach(() => {
    current = postgresStore({ connectionString: cluster.url() }, { schema: freshSchema("versions") });
  });
  afterEach(async () => {
    await current?.close();
  });
  versionScenarios({
    get store() {
      if (current === undefined) throw new Error("no store outside a test");
      return current;
    },
  });
});
