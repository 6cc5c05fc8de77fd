/** The store conformance suite and its row builders, as `formletter/store/conformance` ships them. */
export * from "../../src/store/conformance/index.js";
