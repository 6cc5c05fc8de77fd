import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../../src/index.js";
import { catalog, clinicTicket, reminderProposal } from "../../fixtures/clinic.js";
import { expectEscalation } from "../../fixtures/expect.js";
import { loadTicket, propertyCatalog, proposal } from "../../fixtures/property.js";

const ticket = clinicTicket();
const valid = reminderProposal(ticket);

describe("catalog.parse(): the model's output read once", () => {
  it.each<[string, unknown]>([
    ["a proposal", valid],
    ["its JSON text", JSON.stringify(valid)],
    ["an escalation with a note", { escalate: "needs_human", note: "call back" }],
    ["prose", "I'll just email them"],
    ["an unknown key", { ...valid, bcc: "eve@evil.example" }],
  ])("decide() on the parsed %s decides as on the output itself", (_name, output) => {
    expect(catalog.decide(catalog.parse(output), ticket)).toEqual(catalog.decide(output, ticket));
  });

  it("holds for any output", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.anything()), (output) => {
        expect(catalog.decide(catalog.parse(output), ticket)).toEqual(catalog.decide(output, ticket));
      }),
      { numRuns: 300 },
    );
  });

  it("a look-alike of a parsed output is read as any other output, not trusted", () => {
    const forged = { ok: true, proposal: { kind: "template", template: valid.template, slots: new Map() } };
    const decision = expectEscalation(catalog.decide(forged, ticket), "invalid_proposal");
    expect(decision.detail).toContain('"ok"');
  });

  it("the parsed output cannot be changed after parsing", () => {
    const parsed = catalog.parse(valid);
    expect(Object.isFrozen(parsed)).toBe(true);
    if (parsed.ok) expect(Object.isFrozen(parsed.proposal)).toBe(true);
  });
});

describe("handle() parses the output once", () => {
  it("calls parse once and hands decide() the parsed output", async () => {
    let parses = 0;
    const given: unknown[] = [];
    const counting = {
      ...propertyCatalog,
      parse: (output: unknown) => {
        parses++;
        return propertyCatalog.parse(output);
      },
      decide: (output: unknown, records: unknown) => {
        given.push(output);
        return propertyCatalog.decide(output, records);
      },
    } as typeof propertyCatalog;
    const outbox = createOutbox({
      catalog: counting,
      load: loadTicket,
      store: memoryStore(),
      transports: { email: memoryTransport() },
    });
    const output = JSON.stringify(proposal("T-1"));
    const result = await outbox.handle({ ticketId: "T-1", output, runId: "r" });
    expect(result.decision.outcome).toBe("send");
    expect(parses).toBe(1);
    expect(given).toHaveLength(1);
    expect(given[0]).not.toBe(output);
    expect(given[0]).toMatchObject({ ok: true });
    await outbox.close();
  });
});
