/**
 * A worker thread helping a merge: it tells the verdicts of each pass's clusters on their likely
 * candidates ({@link tellVerdicts}) while the merging thread places them.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type GuessSetup, type PassRequest, tellVerdicts } from "./merge-guesses.js";

function run(port: NonNullable<typeof parentPort>, setup: GuessSetup): void {
  port.on("message", (request: PassRequest) => tellVerdicts(request, setup));
}

if (parentPort !== null) run(parentPort, workerData as GuessSetup);
