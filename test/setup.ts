import { afterEach, beforeEach, vi } from "vitest";

// The library prints nothing: any console call from code under test fails the test.
const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;

beforeEach(() => {
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      throw new Error(`console.${method} called during a test: ${args.map(String).join(" ")}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});
