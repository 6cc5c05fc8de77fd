/** The store conformance suite and its row builders, as `formletter/store` ships them. */
export * from "../../src/store/conformance.js";
