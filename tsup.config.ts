import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "sqlite/index": "src/sqlite/index.ts",
    "smtp/index": "src/smtp/index.ts",
  },
  format: ["esm", "cjs"],
  target: "node20",
  clean: true,
  sourcemap: true,
  // tsup injects `baseUrl`, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
});
