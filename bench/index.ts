/**
 * Runs every benchmark in turn and prints figures and ratios. Benchmarks run against the built
 * package (`npm run bench` builds first), so the figures are those of what users install.
 */
process.stdout.write(`node ${process.version}, ${process.platform}/${process.arch}\n\n`);
// First, before the other benchmarks leave servers and worker threads behind them on the machine.
await import("./cold-start.js");
await import("./decide.js");
await import("./scan.js");
await import("./outbox.js");
await import("./beside-tight-outbox.js");
await import("./replay.js");
await import("./mine.js");
// Loghub-2k is not shipped (research use): it runs when LOGHUB_DIR names the folder of its files.
const loghub = process.env.LOGHUB_DIR;
if (loghub) {
  // loghub.ts reads its folder from the command line, as when it runs alone.
  process.argv.splice(2, process.argv.length, loghub);
  await import("./loghub.js");
} else
  process.stdout.write(
    "\nLoghub-2k: skipped; set LOGHUB_DIR to the folder of its files (docs/migration.md says how)\n",
  );
await import("./relay.js");
await import("./postgres.js");
await import("./tokens.js");
await import("./preview.js");
await import("./definitions.js");
await import("./workspace.js");
