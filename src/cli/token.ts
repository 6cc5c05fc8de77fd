import type { Command } from "commander";
import { isFormletterError } from "../core/errors.js";
import { mintOperatorToken, mintTaskToken } from "../relay/tokens.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";

const units: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A token's life from the command line: "900" (seconds), "30s", "15m", "8h", "2d". */
function parseTtl(text: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (match === null) throw new CliError("--ttl: give seconds or a duration such as 15m, 8h, 2d");
  return Number(match[1]) * (units[match[2] || "s"] as number);
}

/**
 * Each secret the command line reads, with what it is for and how to make one: a missing secret's
 * message says which one it is, so the fix it gives is the one for that secret (a webhook receiver's
 * key is not the relay's token secret). A new secret cannot be read without a line here.
 */
const secretPurposes = {
  FORMLETTER_SECRET:
    "the relay's secret that signs agents' task tokens, the same value for `formletter serve` and `formletter token mint` (at least 32 random bytes, e.g. openssl rand -base64 48)",
  FORMLETTER_OPERATOR_SECRET:
    "the relay's secret that signs operator tokens, different from FORMLETTER_SECRET (at least 32 random bytes, e.g. openssl rand -base64 48)",
  FORMLETTER_CONTACT_KEY:
    "the key destinations are recorded under for first contact (docs/controls.md), the same value for every process of one store (at least 32 random bytes)",
  FORMLETTER_TASK_TOKEN:
    "the task token `formletter mcp --relay URL` forwards calls with, as `formletter token mint --ticket T --run R` printed it",
  WEBHOOK_SECRET:
    'WEBHOOK_URL is set, so webhook deliveries are signed: set it to the Standard Webhooks secret your receiver verifies with ("whsec_" then 24 to 64 random bytes in base64; two separated by a space while rotating)',
} as const;

/** The name of a secret the command line reads from the environment. */
export type SecretName = keyof typeof secretPurposes;

/** The secret in `name`, from the environment only: a flag would leave it in shell history and `ps`. */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: SecretName): string {
  const secret = env[name];
  if (secret !== undefined && secret !== "") return secret;
  // A caller the type did not hold (JavaScript, a cast) still gets a message that names no other secret.
  const purpose = Object.hasOwn(secretPurposes, name) ? secretPurposes[name] : "a secret formletter reads";
  throw new CliError(`${name} is not set: ${purpose}. Put it in the environment, never in a flag`);
}

/**
 * `formletter token mint --ticket T --run R [--ttl 15m]` (FORMLETTER_SECRET) or
 * `formletter token mint --operator WHO [--ttl 8h]` (FORMLETTER_OPERATOR_SECRET): prints one token.
 */
export function registerTokenCommand(
  program: Command,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const token = program.command("token").description("tokens for the relay (formletter serve)");
  token
    .command("mint")
    .description(
      "print a task token for one ticket and run (signed with FORMLETTER_SECRET), or an operator token with --operator (FORMLETTER_OPERATOR_SECRET)",
    )
    .option("--ticket <id>", "the one ticket the agent may act on")
    .option("--run <id>", "the agent run")
    .option("--operator <who>", "mint an operator token for this person instead")
    .option("--ttl <duration>", "how long the token lives: 900, 15m, 8h, 2d (default 15m; 8h for operators)")
    .option("--json", "print { token, audience, expiresAt }")
    .action(async (options) => {
      const operator = options.operator as string | undefined;
      if (operator !== undefined && (options.ticket !== undefined || options.run !== undefined))
        throw new CliError(
          "pass --ticket and --run for a task token, or --operator for an operator token, not both",
        );
      if (operator === undefined && (options.ticket === undefined || options.run === undefined))
        throw new CliError("a task token needs --ticket and --run");
      const ttl = options.ttl === undefined ? (operator === undefined ? 900 : 28_800) : parseTtl(options.ttl);
      const now = Date.now();
      const secretName = operator === undefined ? "FORMLETTER_SECRET" : "FORMLETTER_OPERATOR_SECRET";
      const secret = secretFromEnv(env, secretName);
      let minted: string;
      try {
        minted =
          operator === undefined
            ? await mintTaskToken({ secret, ticketId: options.ticket, runId: options.run, ttl, now })
            : await mintOperatorToken({ secret, operator, ttl, now });
      } catch (error) {
        // The secret is named as the operator set it: by its environment variable.
        if (isFormletterError(error))
          throw new CliError(error.message.replace(/^(secret|operatorSecret) /, `${secretName} `));
        throw error;
      }
      if (options.json !== true) return io.stdout(`${minted}\n`);
      const expiresAt = new Date((Math.floor(now / 1000) + ttl) * 1000).toISOString();
      const audience = operator === undefined ? "formletter-agent" : "formletter-operator";
      io.stdout(`${JSON.stringify({ token: minted, audience, expiresAt })}\n`);
    });
}
