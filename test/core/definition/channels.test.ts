import { describe, expect, it } from "vitest";
import { escapeHtml, foldLine, hasLineBreak, smsSize } from "../../../src/core/definition/channels.js";
import { createCatalog, defineTemplate, format } from "../../../src/index.js";
import { alan, catalog, clinicTicket, grace, records } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const { slot } = records;
const base = clinicTicket();
const withClinicianName = (name: string) => clinicTicket({ clinicians: [{ ...grace, name }, alan] });

describe("foldLine: a subject is one line", () => {
  it.each([
    ["a\nb", "a b"],
    ["a\r\nb", "a b"],
    ["a\n\nb", "a b"],
    ["a\u2028b\u2029c\u0085d", "a b c d"],
    ["a\u000Bb\u000Cc", "a b c"],
    ["one line", "one line"],
  ])("folds %j to %j", (raw, folded) => {
    expect(foldLine(raw)).toBe(folded);
    expect(hasLineBreak(foldLine(raw))).toBe(false);
  });
});

describe("smsSize: GSM-7 and UCS-2 segment counting", () => {
  it.each<[string, string, "GSM-7" | "UCS-2", number, number]>([
    ["160 GSM characters", "a".repeat(160), "GSM-7", 160, 1],
    ["161 GSM characters", "a".repeat(161), "GSM-7", 161, 2],
    ["306 GSM characters", "a".repeat(306), "GSM-7", 306, 2],
    ["307 GSM characters", "a".repeat(307), "GSM-7", 307, 3],
    ["459 GSM characters", "a".repeat(459), "GSM-7", 459, 3],
    ["460 GSM characters", "a".repeat(460), "GSM-7", 460, 4],
    ["80 euro signs (extension: 2 septets each)", "€".repeat(80), "GSM-7", 160, 1],
    ["81 euro signs", "€".repeat(81), "GSM-7", 162, 2],
    ["159 letters and one brace", `${"a".repeat(159)}{`, "GSM-7", 161, 2],
    ["each extension character counts double", "^{}\\[~]|€", "GSM-7", 18, 1],
    ["GSM accented letters and symbols count once", "Ä Ö Ñ Ü é è ù ì ò £ ¥ § ¿ ¡ Δ Ω", "GSM-7", 31, 1],
    ["newlines count once", "a\nb\nc", "GSM-7", 5, 1],
    ["70 non-GSM characters", "ł".repeat(70), "UCS-2", 70, 1],
    ["71 non-GSM characters", "ł".repeat(71), "UCS-2", 71, 2],
    ["134 non-GSM characters", "ł".repeat(134), "UCS-2", 134, 2],
    ["135 non-GSM characters", "ł".repeat(135), "UCS-2", 135, 3],
    ["one non-GSM character switches the whole text", `${"a".repeat(69)}ł`, "UCS-2", 70, 1],
    ["one non-GSM character in 100 letters", `${"a".repeat(99)}ł`, "UCS-2", 100, 2],
    ["35 emoji (two UTF-16 units each)", "😀".repeat(35), "UCS-2", 70, 1],
    ["36 emoji", "😀".repeat(36), "UCS-2", 72, 2],
  ])("%s", (_name, text, encoding, units, segments) => {
    expect(smsSize(text)).toEqual({ encoding, units, segments });
  });
});

describe("SMS through decide", () => {
  const decideSms = (ticket: ReturnType<typeof clinicTicket>) =>
    catalog.decide({ template: "sms_reminder", slots: {} }, ticket);

  it("reports encoding and segments of the rendered text", () => {
    const decision = expectSend(decideSms(base));
    const { encoding, segments } = smsSize(decision.message.text);
    expect(decision.message.sms).toEqual({ encoding, segments });
    expect(decision.message.sms?.encoding).toBe("GSM-7");
    expect(decision.message).not.toHaveProperty("subject");
  });

  it("a value outside GSM-7 switches the message to UCS-2", () => {
    const decision = expectSend(decideSms(withClinicianName("Dr Łucja Kowalska")));
    expect(decision.message.sms?.encoding).toBe("UCS-2");
  });

  const roomy = defineTemplate(records, {
    id: "sms_long",
    description: "SMS with a long value",
    audience: "patient",
    effect: "informational",
    channel: "sms",
    to: slot.ref("patients", { show: "phone", as: format.phone({ defaultCountry: "DE" }) }),
    body: "Message from {{clinician}}.",
    slots: { clinician: slot.ref("clinicians", { show: "name", maxLength: 1000 }) },
    limits: { perTicket: 1, perDay: 1 },
    maxSegments: 2,
  });
  const sms = createCatalog(records, [roomy]);
  const decideLong = (name: string) => {
    const ticket = withClinicianName(name);
    return sms.decide(
      { template: "sms_long", slots: { clinician: sms.handles(ticket).get("clinicians", "C-1") } },
      ticket,
    );
  };
  const fixed = "Message from .".length;

  it("GSM-7: 306 septets fit two segments, 307 go over maxSegments 2 → slot_rejected", () => {
    expect(expectSend(decideLong("e".repeat(306 - fixed))).message.sms).toEqual({
      encoding: "GSM-7",
      segments: 2,
    });
    const over = expectEscalation(decideLong("e".repeat(307 - fixed)), "slot_rejected");
    expect(over.detail).toMatch(/segments/);
  });

  it("extension characters count double against maxSegments", () => {
    const half = Math.floor((306 - fixed) / 2);
    expectSend(decideLong(`${"€".repeat(half)}${"e".repeat(306 - fixed - 2 * half)}`));
    expectEscalation(
      decideLong(`${"€".repeat(half)}${"e".repeat(306 - fixed - 2 * half + 1)}`),
      "slot_rejected",
    );
    expectEscalation(decideLong("€".repeat(half + 1)), "slot_rejected");
  });

  it("UCS-2: 134 units fit two segments, 135 do not", () => {
    expect(expectSend(decideLong(`ł${"e".repeat(134 - fixed - 1)}`)).message.sms).toEqual({
      encoding: "UCS-2",
      segments: 2,
    });
    expectEscalation(decideLong(`ł${"e".repeat(135 - fixed - 1)}`), "slot_rejected");
  });
});

describe("WhatsApp rules at run time", () => {
  const phoneTo = slot.ref("patients", { show: "phone", as: format.phone({ defaultCountry: "DE" }) });
  const header = defineTemplate(records, {
    id: "wa_header",
    description: "WhatsApp with a value in the header",
    audience: "patient",
    effect: "informational",
    channel: "whatsapp",
    to: phoneTo,
    subject: "Your visit with {{clinician}}",
    body: "Your appointment with {{clinician}} is confirmed.",
    slots: { clinician: slot.ref("clinicians", { show: "name" }) },
    limits: { perTicket: 1, perDay: 1 },
  });
  const long = defineTemplate(records, {
    id: "wa_long",
    description: "WhatsApp with a long value",
    audience: "patient",
    effect: "informational",
    channel: "whatsapp",
    to: phoneTo,
    body: "Note from {{clinician}} for your visit.",
    slots: { clinician: slot.ref("clinicians", { show: "name", maxLength: 5000 }) },
    limits: { perTicket: 1, perDay: 1 },
  });
  const whatsapp = createCatalog(records, [header, long]);
  const decideWa = (template: string, name: string) => {
    const ticket = withClinicianName(name);
    return whatsapp.decide(
      { template, slots: { clinician: whatsapp.handles(ticket).get("clinicians", "C-1") } },
      ticket,
    );
  };

  it("a header over 60 characters once filled → slot_rejected", () => {
    const fixed = "Your visit with ".length;
    expectSend(decideWa("wa_header", "G".repeat(60 - fixed)));
    expectEscalation(decideWa("wa_header", "G".repeat(61 - fixed)), "slot_rejected");
  });

  it("a body over 1,024 characters once filled → slot_rejected", () => {
    const fixed = "Note from  for your visit.".length;
    expectSend(decideWa("wa_long", "G".repeat(1024 - fixed)));
    expectEscalation(decideWa("wa_long", "G".repeat(1025 - fixed)), "slot_rejected");
  });

  it("values carry no newlines, tabs or runs of four spaces", () => {
    const decision = expectSend(decideWa("wa_header", "Dr\tGrace    Hopper\nMD"));
    expect(decision.values.clinician).toBe("Dr Grace Hopper MD");
    expect(decision.message.text).not.toMatch(/\t| {4}/);
    expect(decision.message.subject).not.toMatch(/[\r\n]/);
  });
});

describe("e-mail", () => {
  const urgent = defineTemplate(records, {
    id: "urgent_note",
    description: "E-mail with HTML",
    audience: "patient",
    effect: "informational",
    channel: "email",
    to: slot.ref("patients", { show: "email", as: format.email() }),
    subject: "Note from {{clinician}}",
    body: "{{clinician}} says: {{level}}",
    html: '<p title="{{clinician}}">{{clinician}} says: <b>{{level}}</b></p>',
    slots: {
      clinician: slot.ref("clinicians", { show: "name" }),
      level: slot.choice({ high: '<script>alert("label")</script> & "soon"' }),
    },
    limits: { perTicket: 1, perDay: 1 },
  });
  const mail = createCatalog(records, [urgent]);
  const decideMail = (name: string) => {
    const ticket = withClinicianName(name);
    return mail.decide(
      {
        template: "urgent_note",
        slots: { clinician: mail.handles(ticket).get("clinicians", "C-1"), level: "high" },
      },
      ticket,
    );
  };

  it("the HTML body escapes every value; the text body does not", () => {
    const decision = expectSend(decideMail(`Tom & Jerry's "clinic"`));
    const html = decision.message.html ?? "";
    expect(html).toContain("&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt; &amp; &quot;soon&quot;");
    expect(html).toContain("Tom &amp; Jerry&#39;s &quot;clinic&quot;");
    expect(html).not.toContain('"clinic"');
    expect(html).not.toContain("<script");
    // The attribute cannot be closed by a value.
    expect(html.startsWith('<p title="Tom &amp; Jerry&#39;s &quot;clinic&quot;">')).toBe(true);
    expect(decision.message.text).toContain(`Tom & Jerry's "clinic" says: <script>`);
  });

  it("a <script> from a record never reaches the HTML as a tag", () => {
    const decision = expectSend(decideMail("<script>alert(1)</script>"));
    expect(decision.message.html).toMatch(/&lt;script&gt;|‹script›/);
    expect(decision.message.html).not.toMatch(/<script>alert\(1\)/);
  });

  it("the subject stays one line and within 200 characters", () => {
    expect(expectSend(decideMail("Dr\r\nBcc: x")).message.subject).toBe("Note from Dr Bcc: x");
    const fixed = "Note from ".length;
    expectSend(decideMail("G".repeat(200 - fixed)));
    expectEscalation(decideMail("G".repeat(200 - fixed + 1)), "slot_rejected");
  });

  it("escapeHtml escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});
