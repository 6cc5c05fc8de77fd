/**
 * A missing secret is named with what it is for: the fix a message gives is the one for that secret
 * (a webhook receiver's key is not the relay's token secret, and the other way round).
 */
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/output.js";
import { transportsFromEnv } from "../../src/cli/serve.js";
import { type SecretName, secretFromEnv } from "../../src/cli/token.js";

const io: CliIo = { stdout: () => undefined, stderr: () => undefined };

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected a refusal");
}

describe("a missing secret's message", () => {
  it("for WEBHOOK_SECRET points at the webhook receiver's Standard Webhooks secret, not the relay", async () => {
    const refused = transportsFromEnv({ WEBHOOK_URL: "https://hooks.example.com/in" }, new Set(["sms"]), io);
    const message = await refused.then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^WEBHOOK_SECRET is not set: WEBHOOK_URL is set/);
    expect(message).toContain("Standard Webhooks secret your receiver verifies with");
    expect(message).toContain('"whsec_"');
    expect(message).not.toMatch(/relay|task token/);
  });

  it.each([
    ["FORMLETTER_SECRET", /signs agents' task tokens/],
    ["FORMLETTER_OPERATOR_SECRET", /signs operator tokens, different from FORMLETTER_SECRET/],
    ["FORMLETTER_CONTACT_KEY", /first contact/],
    ["WEBHOOK_SECRET", /webhook deliveries are signed/],
  ] as const)("for %s says what it is and to keep it out of flags", (name: SecretName, purpose) => {
    for (const value of [undefined, ""]) {
      const message = messageOf(() => secretFromEnv({ [name]: value }, name));
      expect(message.startsWith(`${name} is not set: `)).toBe(true);
      expect(message).toMatch(purpose);
      expect(message).toMatch(/never in a flag$/);
    }
    expect(secretFromEnv({ [name]: "set" }, name)).toBe("set");
  });

  it("a name without a purpose is a compile error, so no secret gets another's fix", () => {
    // @ts-expect-error: every secret the command line reads is listed with what it is for
    expect(messageOf(() => secretFromEnv({}, "SOME_OTHER_SECRET"))).toBe(
      "SOME_OTHER_SECRET is not set: a secret formletter reads. Put it in the environment, never in a flag",
    );
  });
});
