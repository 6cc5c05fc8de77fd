import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/decision/decision.js";
import { slackTransport, twilioTransport } from "../../src/providers/index.js";
import { catalog, clinicTicket, grace, handleOf } from "../fixtures/clinic.js";
import { json, useLoopback } from "./loopback.js";

const loopback = useLoopback(json(201, { sid: `SM${"0".repeat(32)}` }));
const contentSid = `HX${"1".repeat(32)}`;

/** The message decide() makes for a proposal on the clinic ticket, failing loudly when it escalates. */
function decided(proposal: unknown, ticket = clinicTicket()): Message {
  const decision = catalog.decide(proposal, ticket);
  if (decision.outcome !== "send") throw new Error(`fixture: ${decision.reason}`);
  return decision.message;
}

// The clinic catalog's messages as decide() renders them, through the transports: the approved
// WhatsApp text and what decide() wrote must agree, and a record value must not become Slack markup.
describe("decided messages through Twilio and Slack", () => {
  it("sends whatsapp_confirm as its approved template, with the variables decide() filled in", async () => {
    const ticket = clinicTicket({
      clinicians: [{ ...grace, name: "Dr <Grace> & Hopper, is confirmed. See" }],
    });
    const message = decided(
      {
        template: "whatsapp_confirm",
        slots: {
          appointment: handleOf(ticket, "appointments", "A-1"),
          clinician: handleOf(ticket, "clinicians", "C-1"),
          to: handleOf(ticket, "patients", "P-1"),
        },
      },
      ticket,
    );
    const transport = twilioTransport({
      accountSid: `AC${"0".repeat(32)}`,
      authToken: "token-0123456789",
      from: "+14155550100",
      whatsapp: {
        whatsapp_confirm: {
          contentSid,
          header: "Appointment confirmed",
          body: "Your appointment on {{1}} with {{2}} is confirmed. See you soon.",
        },
      },
      baseUrl: `http://127.0.0.1:${loopback().port}`,
    });
    await transport.deliver(message, { key: "k", attempt: 1 });
    const sent = Object.fromEntries(new URLSearchParams(loopback().received[0]?.body ?? ""));
    expect(sent.To).toBe("whatsapp:+493012345678");
    const variables = JSON.parse(sent.ContentVariables ?? "") as Record<string, string>;
    expect(variables["1"]).toBe("2 Mar 2026");
    expect(variables["2"]).toContain("Grace");
    expect(`Your appointment on ${variables["1"]} with ${variables["2"]} is confirmed. See you soon.`).toBe(
      message.text,
    );
  });

  it("posts oncall_page to the nurse's id with the text shown as written", async () => {
    loopback().reply = () => json(200, { ok: true, channel: "D0123ABCD", ts: "1.2" });
    const ticket = clinicTicket();
    const message = decided({
      template: "oncall_page",
      slots: { appointment: handleOf(ticket, "appointments", "A-1"), need: "pain" },
    });
    const transport = slackTransport({
      token: "xoxb-1-2-3",
      slackApiUrl: `http://127.0.0.1:${loopback().port}/api/`,
    });
    expect(await transport.deliver(message, { key: "k", attempt: 1 })).toEqual({ id: "D0123ABCD:1.2" });
    const sent = Object.fromEntries(new URLSearchParams(loopback().received[0]?.body ?? ""));
    expect(sent).toMatchObject({ channel: "U024BE7LH", text: message.text });
  });
});
