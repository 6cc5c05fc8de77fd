import { describe, expect, it, vi } from "vitest";
import { consoleTransport } from "../../src/transport/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

function collect() {
  const out: string[] = [];
  return { out, write: (text: string) => void out.push(text) };
}

describe("consoleTransport", () => {
  it("writes channel, recipient and subject aligned, then the body indented", async () => {
    const { out, write } = collect();
    const transport = consoleTransport({ write });
    const message = emailMessage();
    const { id } = await transport.deliver(message, { key, attempt: 1 });
    expect(id).toMatch(/^console-\d+$/);
    expect(out).toEqual([
      [
        `── ${id} ${"─".repeat(60 - id.length)}`,
        "channel:  email",
        "template: appointment_reminder",
        "to:       ada.lovelace@example.org",
        "subject:  Your appointment on 2 Mar 2026",
        `key:      ${key}`,
        `html:     ${message.html?.length} characters, not shown`,
        "",
        "    Hello Ada Lovelace,",
        "",
        "    your appointment is on 2 Mar 2026 at 10:30 in room B12.",
        "",
        "    Your clinic",
        "",
        "",
      ].join("\n"),
    ]);
  });

  it("leaves out what a message does not have, and shows SMS size and retries", async () => {
    const { out, write } = collect();
    const transport = consoleTransport({ write, name: "sms-console" });
    expect(transport.name).toBe("sms-console");
    const first = await transport.deliver(smsMessage(), { key, attempt: 1 });
    const second = await transport.deliver(smsMessage(), { key, attempt: 3 });
    expect(out[0]).not.toContain("subject:");
    expect(out[0]).not.toContain("html:");
    expect(out[0]).toContain("sms:      1 segment(s), GSM-7\n");
    expect(out[0]).toContain("\n    Your order 4471-2290 is ready for pickup.\n");
    expect(out[1]).toContain(`key:      ${key} (attempt 3)\n`);
    expect(out[1]?.startsWith(`── ${second.id} `)).toBe(true);
    expect(second.id).not.toBe(first.id);
  });

  it("shows terminal control characters escaped instead of sending them to the terminal", async () => {
    const { out, write } = collect();
    await consoleTransport({ write }).deliver(
      emailMessage({ subject: "Hi\u001b[2J", text: "line one\rline two\u0007" }),
      { key, attempt: 1 },
    );
    expect(out[0]).not.toMatch(/[\u0000-\u0009\u000B-\u001F]/);
    expect(out[0]).toContain("subject:  Hi\\u001b[2J\n");
    expect(out[0]).toContain("    line one\\u000dline two\\u0007\n");
  });

  it("never gives two deliveries the same receipt id, also from two transports (e-mail and SMS)", async () => {
    const { write } = collect();
    const email = consoleTransport({ write });
    const sms = consoleTransport({ write });
    const ids = [
      await email.deliver(emailMessage(), { key, attempt: 1 }),
      await sms.deliver(smsMessage(), { key, attempt: 1 }),
      await email.deliver(emailMessage(), { key, attempt: 2 }),
      await sms.deliver(smsMessage(), { key, attempt: 2 }),
    ].map((receipt) => receipt.id);
    expect(new Set(ids).size).toBe(4);
  });

  it("writes to process.stdout by default, never to console", async () => {
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const receipt = await consoleTransport().deliver(emailMessage(), { key, attempt: 1 });
    expect(receipt.id).toMatch(/^console-\d+$/);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(String(spy.mock.calls[0]?.[0])).toContain("to:       ada.lovelace@example.org");
  });

  it("passes a writer's failure on, as an error the outbox retries", async () => {
    const transport = consoleTransport({
      write: () => {
        throw new Error("EPIPE");
      },
    });
    await expect(transport.deliver(emailMessage(), { key, attempt: 1 })).rejects.toThrow("EPIPE");
  });
});
