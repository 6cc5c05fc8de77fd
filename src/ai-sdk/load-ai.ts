import type * as Ai from "ai";
import { requirePeer } from "../core/peer-dependency.js";

/** The two functions of the AI SDK formletter uses: `tool()` and `jsonSchema()`. */
export type AiFunctions = Pick<typeof Ai, "tool" | "jsonSchema">;

/**
 * Loads the AI SDK when tools are first made, so that importing formletter never needs it; a missing
 * package is a `dependency_missing` error naming `npm install ai`. Its schemas are recognised by a
 * global symbol, so a schema made by this copy works in the copy the application imports.
 */
export function loadAi(): AiFunctions {
  return requirePeer<typeof Ai>("ai", "the AI SDK adapter (formletter/ai-sdk)");
}
