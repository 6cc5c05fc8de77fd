import { memoryStore } from "../../src/index.js";
import { describeStoreConformance } from "./conformance.js";

describeStoreConformance("memory", async () => {
  const store = memoryStore();
  return { store, cleanup: () => store.close() };
});
