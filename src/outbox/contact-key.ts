import { createSecretKey, type KeyObject } from "node:crypto";
import { FormletterError } from "../core/errors.js";

/**
 * The key destinations are hashed under (first contact), from a string or bytes of at least 32 bytes: a
 * shorter key would let whoever reads the contacts table test guessed addresses against it.
 */
export function contactKeyFrom(given: string | Uint8Array, who: string): KeyObject {
  const bytes =
    typeof given === "string" ? Buffer.byteLength(given) : given instanceof Uint8Array ? given.byteLength : 0;
  if (bytes < 32) {
    throw new FormletterError(
      "outbox_invalid",
      `${who}: contactKey must be a string or bytes of at least 32 bytes`,
    );
  }
  return createSecretKey(typeof given === "string" ? Buffer.from(given) : given);
}
