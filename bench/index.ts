/**
 * Runs every benchmark in turn and prints figures and ratios. Benchmarks run against the built
 * package (`npm run bench` builds first), so the figures are those of what users install.
 */
process.stdout.write(`node ${process.version}, ${process.platform}/${process.arch}\n\n`);
await import("./decide.js");
await import("./scan.js");
await import("./outbox.js");
await import("./replay.js");
await import("./mine.js");
await import("./relay.js");
await import("./postgres.js");
await import("./tokens.js");
await import("./preview.js");
await import("./definitions.js");
