import { describe, expect, it } from "vitest";
import { createCatalog, defineTemplate, format, type TemplateConfig } from "../../../src/index.js";
import { clinicTicket, handleOf, records } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const { slot } = records;

type Part = "subject" | "text" | "html";

/** An e-mail template that shows the patient's name in `part` only; the other parts are fixed text. */
function showingNameIn(part: Part, html = "<p>Hello <b>{{patient}}</b>, see you soon.</p>"): TemplateConfig {
  return {
    id: "name_in_one_part",
    effect: "informational",
    description: "Greets a patient; the name appears in one part only",
    audience: "patient",
    channel: "email",
    to: slot.ref("patients", { show: "email", as: format.email() }),
    subject: part === "subject" ? "Hello {{patient}}" : "Hello",
    body: part === "text" ? "Hello {{patient}}, see you soon." : "Hello, see you soon.",
    html: part === "html" ? html : "<p>Hello, see you soon.</p>",
    slots: { patient: slot.ref("patients", { show: "name" }) },
    limits: { perTicket: 1, perDay: 10 },
  };
}

function decideWithName(config: TemplateConfig, name: string) {
  const catalog = createCatalog(records, [defineTemplate(records, config)]);
  const base = clinicTicket();
  const ticket = clinicTicket({ patients: base.patients.map((patient) => ({ ...patient, name })) });
  const patient = handleOf(ticket, "patients", "P-1");
  return catalog.decide({ template: config.id, slots: { patient, to: patient } }, ticket);
}

describe("every part of a message is scanned", () => {
  const parts: Part[] = ["subject", "text", "html"];

  it.each(parts)("sends a clean value shown only in the %s", (part) => {
    const decision = expectSend(decideWithName(showingNameIn(part), "Ada Lovelace"));
    const message = decision.message as unknown as Record<string, string>;
    expect(message[part]).toContain("Ada Lovelace");
  });

  it.each(
    parts.flatMap((part) =>
      ["write to eve@evil.example", "call +1 415 555 0100 now", "mobile 0151 2345 6789"].map(
        (name) => [part, name] as const,
      ),
    ),
  )("flags a hostile value shown only in the %s: %j", (part, name) => {
    expectEscalation(decideWithName(showingNameIn(part), name), "content_flagged");
  });

  it("flags a hostile value placed only in an HTML attribute", () => {
    const html = '<p title="{{patient}}">Hello, see you soon.</p>';
    expectEscalation(decideWithName(showingNameIn("html", html), "eve@evil.example"), "content_flagged");
  });

  it("scans the HTML as a reader sees it: an address split by inline markup is still one address", () => {
    const html = "<p>Hello {{patient}}<b>@evil.example</b></p>";
    expectEscalation(decideWithName(showingNameIn("html", html), "eve"), "content_flagged");
  });

  it("does not decode a value's own text: escaped, it shows as written and holds no address", () => {
    const decision = expectSend(decideWithName(showingNameIn("html"), "eve&#64;evil&#46;example"));
    expect(decision.message.html).toContain("eve&amp;#64;evil&amp;#46;example");
  });

  it("accepts an address that is template text in the HTML, written with character references", () => {
    const html = "<p>Hello {{patient}}, write to desk&#64;clinic.example</p>";
    expectSend(decideWithName(showingNameIn("html", html), "Ada Lovelace"));
  });
});

describe("a subject is one line on every channel", () => {
  const multiline = format.text({ multiline: true });

  it.each<[string, TemplateConfig["channel"], ReturnType<typeof slot.ref>]>([
    ["an e-mail subject", "email", slot.ref("patients", { show: "email", as: format.email() })],
    ["a chat title", "chat", slot.ref("patients", { show: "id" })],
  ])("folds a multi-line value into %s, and keeps its lines in the body", (_name, channel, to) => {
    const template = defineTemplate(records, {
      id: "note_echo",
      description: "Echoes the patient's name",
      audience: "patient",
      effect: "informational",
      channel,
      to,
      subject: "About {{patient}}",
      body: "Dear {{patient}}",
      slots: { patient: slot.ref("patients", { show: "name", as: multiline }) },
      limits: { perTicket: 1, perDay: 10 },
    });
    const catalog = createCatalog(records, [template]);
    const base = clinicTicket();
    const ticket = clinicTicket({
      patients: base.patients.map((patient) => ({
        ...patient,
        name: "Ada\r\nBcc: eve\u2028Lovelace\n\nSubject: x",
      })),
    });
    const patient = handleOf(ticket, "patients", "P-1");
    const decision = expectSend(
      catalog.decide({ template: "note_echo", slots: { patient, to: patient } }, ticket),
    );
    expect(decision.message.subject).toBe("About Ada Bcc: eve Lovelace Subject: x");
    expect(decision.message.subject).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
    expect(decision.message.text).toContain("\n");
  });
});
