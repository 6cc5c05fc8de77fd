import { createRequire } from "node:module";
import { FormletterError } from "./errors.js";

/** The optional peer dependencies: each is needed by one subpath only, and installed by its users. */
export type PeerDependency =
  | "better-sqlite3"
  | "pg"
  | "nodemailer"
  | "ai"
  | "@modelcontextprotocol/sdk"
  | "postmark"
  | "resend"
  | "@aws-sdk/client-sesv2"
  | "@sendgrid/mail"
  | "twilio"
  | "@slack/web-api"
  | "@sendgrid/eventwebhook"
  | "sns-validator";

// Each is a CommonJS package or ships a CommonJS build (`ai`, `@modelcontextprotocol/sdk`), so `require` loads it from either of
// formletter's builds; resolved from this module's own location, as an `import` in it would be.
const requireHere = createRequire(import.meta.url);

/**
 * Loads an optional peer dependency at its point of use, so that importing formletter (or running a
 * command that does not need it) never fails for want of it. A missing package is a one-line
 * `dependency_missing` error naming the install command; a package that is present but fails to load
 * (a broken native build, a missing dependency of its own) is rethrown as it is. `entry` names a
 * module inside the package (`"server/index.js"`) for packages that have no single main module.
 */
export function requirePeer<T>(name: PeerDependency, neededBy: string, entry?: string): T {
  const specifier = entry === undefined ? name : `${name}/${entry}`;
  try {
    return requireHere(specifier) as T;
  } catch (error) {
    if (!isMissing(error, specifier)) throw error;
    throw new FormletterError(
      "dependency_missing",
      `${neededBy} needs the "${name}" package, which is not installed: run \`npm install ${name}\``,
      { cause: error },
    );
  }
}

/** True when `error` says that `name` itself cannot be found, not a module it needs in turn. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  const first = typeof message === "string" ? (message.split("\n")[0] ?? "") : "";
  return first.includes(`'${name}'`);
}
