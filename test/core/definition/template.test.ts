import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Slot } from "../../../src/core/definition/slots.js";
import {
  defineRecords,
  defineTemplate,
  FormletterError,
  format,
  isFormletterError,
  type TemplateConfig,
} from "../../../src/index.js";
import { records } from "../../fixtures/clinic.js";
import { thrown } from "../../fixtures/expect.js";
import { config } from "../../fixtures/visit-note-config.js";

const { slot } = records;

const phoneTo = slot.ref("patients", { show: "phone", as: format.phone({ defaultCountry: "DE" }) });

describe("defineTemplate accepts a sound template", () => {
  it("compiles the base config and freezes it", () => {
    const template = defineTemplate(records, config());
    expect(template.id).toBe("visit_note");
    expect(Object.isFrozen(template)).toBe(true);
    expect(template.slots.map((s) => s.name)).toEqual(["room"]);
    expect(template.recipient.name).toBe("to");
  });

  it("keeps the declared effect, and takes an irreversible one when a person approves it", () => {
    expect(defineTemplate(records, config({ effect: "reversible" })).effect).toBe("reversible");
    const refund = defineTemplate(records, config({ effect: "irreversible", approval: "human" }));
    expect([refund.effect, refund.approval]).toEqual(["irreversible", "human"]);
  });

  it("accepts untrusted text shown back to its own author and private fields shown to a listed role", () => {
    expect(() =>
      defineTemplate(
        records,
        config({
          body: "You wrote: {{message}}",
          slots: { message: slot.ref("patients", { show: "message" }) },
        }),
      ),
    ).not.toThrow();
    expect(() =>
      defineTemplate(
        records,
        config({
          audience: "clinician",
          to: slot.ref("clinicians", { show: "email" }),
          body: "Diagnosis: {{diagnosis}}.",
          slots: { diagnosis: slot.ref("patients", { show: "diagnosis" }) },
        }),
      ),
    ).not.toThrow();
  });

  it("detects an e-mail recipient from a z.email() field without an explicit format", () => {
    expect(() =>
      defineTemplate(
        records,
        config({ audience: "clinician", to: slot.ref("clinicians", { show: "email" }) }),
      ),
    ).not.toThrow();
  });
});

type Case = {
  name: string;
  define: () => unknown;
  /** The slot the error must name (also in `error.slot`), if the fault is a slot. */
  slot?: string;
  /** What the message must say: the fault and the fix. */
  says: RegExp[];
  /** The template id the error names. @default "visit_note" */
  id?: string;
};

const cases: Case[] = [
  {
    name: "no effect declared",
    define: () => defineTemplate(records, config({ effect: undefined })),
    says: [/effect is required/, /"informational", "reversible", "irreversible"/],
  },
  {
    name: "an effect that is not one of the three",
    define: () => defineTemplate(records, config({ effect: "Irreversible" as never })),
    says: [/effect is required and must be one of/],
  },
  {
    name: "an irreversible template without approval",
    define: () => defineTemplate(records, config({ effect: "irreversible" })),
    says: [/irreversible/, /approval: "human"/],
  },
  {
    name: "a tag that is not a declared slot",
    define: () => defineTemplate(records, config({ body: "Room {{rooms}}." })),
    says: [/\{\{rooms\}\}/, /not a declared slot/i, /declared: room/],
  },
  {
    name: "a declared slot never used",
    define: () =>
      defineTemplate(
        records,
        config({
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            doctor: slot.ref("clinicians", { show: "name" }),
          },
        }),
      ),
    slot: "doctor",
    says: [/never used/i, /remove/i],
  },
  {
    name: "a triple-mustache unescaped tag {{{x}}}",
    define: () => defineTemplate(records, config({ body: "Room {{{room}}}." })),
    says: [/unescaped/i, /use \{\{x\}\}/i],
  },
  {
    name: "an ampersand unescaped tag {{& x}}",
    define: () => defineTemplate(records, config({ body: "Room {{& room}}." })),
    says: [/unescaped/i],
  },
  {
    name: "a partial",
    define: () => defineTemplate(records, config({ body: "Room {{room}}. {{> footer}}" })),
    says: [/partial/i],
  },
  {
    name: "a delimiter change",
    define: () => defineTemplate(records, config({ body: "{{=<% %>=}}Room <% room %>." })),
    says: [/delimiter/i],
  },
  {
    name: "an unclosed section",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}.{{#prep.fasting}} Do not eat.",
          slots: { room: slot.ref("appointments", { show: "room" }), prep: slot.choice({ fasting: "fast" }) },
        }),
      ),
    says: [/mustache|section/i, /close/i],
  },
  {
    name: "a section closed with the wrong name",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}.{{#prep.fasting}} Do not eat.{{/prep.none}}",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            prep: slot.choice({ fasting: "fast", none: "-" }),
          },
        }),
      ),
    says: [/mustache|section/i],
  },
  {
    name: "a section over a required ref slot",
    define: () => defineTemplate(records, config({ body: "{{#room}}Room {{room}}.{{/room}}" })),
    slot: "room",
    says: [/required/i, /optional/i],
  },
  {
    name: "an inverted section over a required ref slot",
    define: () => defineTemplate(records, config({ body: "Room {{room}}.{{^room}} No room.{{/room}}" })),
    slot: "room",
    says: [/required/i],
  },
  {
    name: "a section naming a key the choice does not have",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}, {{prep}}.{{#prep.coffee}} Coffee.{{/prep.coffee}}",
          slots: { room: slot.ref("appointments", { show: "room" }), prep: slot.choice({ fasting: "fast" }) },
        }),
      ),
    slot: "prep",
    says: [/prep\.fasting/],
  },
  {
    name: "an optional slot shown outside its section",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}, urgency {{urgency}}.",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            urgency: slot.choice({ high: "high" }, { optional: true }),
          },
        }),
      ),
    slot: "urgency",
    says: [/\{\{#urgency\}\}/],
  },
  {
    name: "an untrusted field shown to anyone but its author",
    define: () =>
      defineTemplate(
        records,
        config({
          audience: "clinician",
          to: slot.ref("clinicians", { show: "email" }),
          body: "The patient wrote: {{message}}",
          slots: { message: slot.ref("patients", { show: "message" }) },
        }),
      ),
    slot: "message",
    says: [/patients\.message/, /untrusted/i, /"patient"/, /"clinician"/],
  },
  {
    name: "an untrusted field among several shown fields",
    define: () =>
      defineTemplate(
        records,
        config({
          audience: "oncall",
          to: slot.ref("staff", { show: "chatId" }),
          channel: "chat",
          subject: undefined,
          body: "{{p.name}} wrote {{p.text}}",
          slots: { p: slot.ref("patients", { show: { name: "name", text: "message" } }) },
        }),
      ),
    slot: "p",
    says: [/patients\.message/, /"oncall"/],
  },
  {
    name: "a readableBy field shown to a role not in its list",
    define: () =>
      defineTemplate(
        records,
        config({ body: "Diagnosis: {{d}}.", slots: { d: slot.ref("patients", { show: "diagnosis" }) } }),
      ),
    slot: "d",
    says: [/patients\.diagnosis/, /"clinician"/, /"patient"/, /show another field|change the audience/i],
  },
  {
    name: "an e-mail recipient that is not an e-mail field",
    define: () => defineTemplate(records, config({ to: slot.ref("patients", { show: "name" }) })),
    slot: "to",
    says: [/e-mail/i, /format\.email\(\)|z\.email\(\)/],
  },
  {
    name: "an SMS recipient that is not a phone field",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "sms",
          subject: undefined,
          to: slot.ref("patients", { show: "email", as: format.email() }),
        }),
      ),
    slot: "to",
    says: [/phone/i, /format\.phone/],
  },
  {
    name: "a WhatsApp recipient that is not a phone field",
    define: () =>
      defineTemplate(
        records,
        config({ channel: "whatsapp", subject: undefined, to: slot.ref("patients", { show: "name" }) }),
      ),
    slot: "to",
    says: [/phone/i],
  },
  {
    name: "a recipient showing two fields",
    define: () =>
      defineTemplate(records, config({ to: slot.ref("patients", { show: { a: "email", b: "name" } }) })),
    slot: "to",
    says: [/exactly one field/i],
  },
  {
    name: "an optional recipient",
    define: () =>
      defineTemplate(
        records,
        config({ to: slot.ref("patients", { show: "email", as: format.email(), optional: true }) }),
      ),
    slot: "to",
    says: [/optional/i],
  },
  {
    name: "a recipient that is a choice, not a ref",
    define: () => defineTemplate(records, config({ to: slot.choice({ a: "a@example.org" }) as never })),
    slot: "to",
    says: [/ref slot/i],
  },
  {
    name: "missing limits",
    define: () => defineTemplate(records, { ...config(), limits: undefined } as unknown as TemplateConfig),
    says: [/limits/i, /perTicket/],
  },
  {
    name: "a zero per-ticket limit",
    define: () => defineTemplate(records, config({ limits: { perTicket: 0, perDay: 10 } })),
    says: [/perTicket/, /whole number/i],
  },
  {
    name: "a fractional per-day limit",
    define: () => defineTemplate(records, config({ limits: { perTicket: 1, perDay: 1.5 } })),
    says: [/perDay/],
  },
  {
    name: "an infinite per-day limit",
    define: () =>
      defineTemplate(records, config({ limits: { perTicket: 1, perDay: Number.POSITIVE_INFINITY } })),
    says: [/perDay/],
  },
  {
    name: "WhatsApp: a variable at the start",
    define: () =>
      defineTemplate(
        records,
        config({ channel: "whatsapp", to: phoneTo, subject: undefined, body: "{{room}} is your room." }),
      ),
    says: [/start/i, /fixed text/i],
  },
  {
    name: "WhatsApp: a variable at the end",
    define: () =>
      defineTemplate(
        records,
        config({ channel: "whatsapp", to: phoneTo, subject: undefined, body: "Your room: {{room}}" }),
      ),
    says: [/end/i],
  },
  {
    name: "WhatsApp: a variable at the end, followed only by blanks",
    define: () =>
      defineTemplate(
        records,
        config({ channel: "whatsapp", to: phoneTo, subject: undefined, body: "Your room: {{room}} \n" }),
      ),
    says: [/end/i],
  },
  {
    name: "WhatsApp: two adjacent variables",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: "Your room {{room}} {{doctor}} today.",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            doctor: slot.ref("clinicians", { show: "name" }),
          },
        }),
      ),
    says: [/\{\{room\}\}/, /\{\{doctor\}\}/, /next to each other/i],
  },
  {
    name: "WhatsApp: a header over 60 characters",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: "H".repeat(61),
          body: "Your room is {{room}} today.",
        }),
      ),
    says: [/header/i, /60/],
  },
  {
    name: "WhatsApp: a multi-line value",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: "Your room is {{room}} today.",
          slots: { room: slot.ref("appointments", { show: "room", as: format.text({ multiline: true }) }) },
        }),
      ),
    slot: "room",
    says: [/line break/i],
  },
  {
    name: "WhatsApp: a body over 1,024 characters of fixed text",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: `Room {{room}} ${"x".repeat(1030)}.`,
        }),
      ),
    says: [/1024|1,024/],
  },
  {
    name: "SMS with a subject",
    define: () => defineTemplate(records, config({ channel: "sms", to: phoneTo, subject: "Hi" })),
    says: [/subject/i, /body/i],
  },
  {
    name: "SMS whose fixed text alone is over maxSegments",
    define: () =>
      defineTemplate(
        records,
        config({
          channel: "sms",
          to: phoneTo,
          subject: undefined,
          body: `Room {{room}}. ${"x".repeat(400)}`,
          maxSegments: 2,
        }),
      ),
    says: [/segments/i, /maxSegments 2/],
  },
  {
    name: "SMS with maxSegments 0",
    define: () =>
      defineTemplate(records, config({ channel: "sms", to: phoneTo, subject: undefined, maxSegments: 0 })),
    says: [/maxSegments/],
  },
  {
    name: "maxSegments on an e-mail template",
    define: () => defineTemplate(records, config({ maxSegments: 2 })),
    says: [/maxSegments/, /sms/i],
  },
  {
    name: "an HTML body on an SMS template",
    define: () =>
      defineTemplate(
        records,
        config({ channel: "sms", to: phoneTo, subject: undefined, html: "<p>{{room}}</p>" }),
      ),
    says: [/html/i, /email/i],
  },
  {
    name: "an e-mail without a subject",
    define: () => defineTemplate(records, config({ subject: undefined })),
    says: [/subject/i],
  },
  {
    name: "a subject on two lines",
    define: () => defineTemplate(records, config({ subject: "Your visit\nBcc: x" })),
    says: [/single line/i],
  },
  {
    name: "an id that is not lower-case",
    define: () => defineTemplate(records, config({ id: "Visit-Note" })),
    id: "Visit-Note",
    says: [/lower-case/i],
  },
  {
    name: "an empty description",
    define: () => defineTemplate(records, config({ description: "  " })),
    says: [/description/i],
  },
  {
    name: "an unknown channel",
    define: () => defineTemplate(records, config({ channel: "fax" as never })),
    says: [/channel/i, /email/],
  },
  {
    name: "an audience that is not a role name",
    define: () => defineTemplate(records, config({ audience: "All Patients" })),
    says: [/audience/i],
  },
  {
    name: "an empty body",
    define: () => defineTemplate(records, config({ body: "" })),
    says: [/body/i],
  },
  {
    name: "a free-text slot (there is no such kind)",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}: {{note}}",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            note: { kind: "text" } as unknown as Slot,
          },
        }),
      ),
    slot: "note",
    says: [/free-text/i, /slot\.ref|slot\.choice/],
  },
  {
    name: "a ref into an undeclared collection",
    define: () =>
      defineTemplate(
        records,
        config({ slots: { room: slot.ref("rooms" as never, { show: "room" as never }) } }),
      ),
    slot: "room",
    says: [/"rooms"/, /declared: patients/],
  },
  {
    name: "a ref showing a field its collection does not have",
    define: () =>
      defineTemplate(
        records,
        config({ slots: { room: slot.ref("appointments", { show: "floor" as never }) } }),
      ),
    slot: "room",
    says: [/"floor"/, /fields: /],
  },
  {
    name: "a choice with no keys",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}} {{prep}}",
          slots: { room: slot.ref("appointments", { show: "room" }), prep: slot.choice({}) },
        }),
      ),
    slot: "prep",
    says: [/at least one key/i],
  },
  {
    name: "a choice key with capitals",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}} {{prep}}",
          slots: { room: slot.ref("appointments", { show: "room" }), prep: slot.choice({ Fasting: "fast" }) },
        }),
      ),
    slot: "prep",
    says: [/"Fasting"/, /lower-case/i],
  },
  {
    name: "a choice label on two lines",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}} {{prep}}",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            prep: slot.choice({ fasting: "no food\nBcc: x" }),
          },
        }),
      ),
    slot: "prep",
    says: [/single-line/i],
  },
  {
    name: "a slot named to",
    define: () =>
      defineTemplate(
        records,
        config({ body: "Room {{to}}", slots: { to: slot.ref("appointments", { show: "room" }) } }),
      ),
    slot: "to",
    says: [/recipient/i],
  },
  {
    name: "a derived slot without a function",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}, {{n}}",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            n: { kind: "derived", optional: false } as unknown as Slot,
          },
        }),
      ),
    slot: "n",
    says: [/function/i],
  },
  {
    name: "a negative maxLength",
    define: () =>
      defineTemplate(
        records,
        config({ slots: { room: slot.ref("appointments", { show: "room", maxLength: -1 }) } }),
      ),
    slot: "room",
    says: [/maxLength/],
  },
  {
    name: "a maxLength of zero on a named field",
    define: () =>
      defineTemplate(
        records,
        config({
          body: "Room {{room.r}}.",
          slots: { room: slot.ref("appointments", { show: { r: { field: "room", maxLength: 0 } } }) },
        }),
      ),
    slot: "room",
    says: [/maxLength/],
  },
  {
    name: "a maxLength of zero",
    define: () =>
      defineTemplate(
        records,
        config({ slots: { room: slot.ref("appointments", { show: "room", maxLength: 0 }) } }),
      ),
    slot: "room",
    says: [/maxLength/],
  },
];

describe("defineTemplate rejects a bad template at definition time", () => {
  it.each(cases)("$name", ({ define, slot: slotName, says, id = "visit_note" }) => {
    const error = thrown(define);
    expect(error).toBeInstanceOf(FormletterError);
    expect(isFormletterError(error)).toBe(true);
    expect(error.code).toBe("template_invalid");
    expect(error.message).toContain(`"${id}"`);
    expect(error.template).toBe(id);
    if (slotName !== undefined) {
      expect(error.slot).toBe(slotName);
      expect(error.message).toContain(`"${slotName}"`);
    }
    for (const pattern of says) expect(error.message).toMatch(pattern);
  });
});

describe("a bad format fails the template that uses it, naming template, slot and fix", () => {
  it.each<[string, () => ReturnType<typeof format.date>, RegExp[]]>([
    [
      "an unknown time zone",
      () => format.date("d MMM yyyy", { timeZone: "Mars/Olympus_Mons" }),
      [/Mars\/Olympus_Mons/, /Europe\/Berlin|UTC/],
    ],
    ["an empty time zone", () => format.date("d MMM yyyy", { timeZone: "" }), [/time zone/i]],
    ["a week-numbering year", () => format.date("YYYY-MM-dd", { timeZone: "UTC" }), [/YYYY-MM-dd/]],
    ["an unquoted letter", () => format.date("dd.MM.yyyy HH:mm Uhr", { timeZone: "UTC" }), [/Uhr/, /quote/i]],
    ["an unknown currency", () => format.money({ currency: "EURO" }), [/EURO/, /ISO 4217/]],
    ["money with neither currency nor currencyField", () => format.money({} as never), [/currencyField/]],
  ])("%s", (_name, badFormat, says) => {
    for (const define of [
      () =>
        defineTemplate(
          records,
          config({
            body: "Your visit on {{day}}.",
            slots: { day: slot.ref("appointments", { show: "startsAt", as: badFormat() }) },
          }),
        ),
      () =>
        defineTemplate(
          records,
          config({
            body: "Your visit on {{day.when}}.",
            slots: {
              day: slot.ref("appointments", { show: { when: { field: "startsAt", as: badFormat() } } }),
            },
          }),
        ),
      () =>
        defineTemplate(
          records,
          config({
            body: "Your visit on {{day}}.",
            slots: { day: slot.derived(() => 0, { as: badFormat() }) },
          }),
        ),
    ]) {
      const error = thrown(define);
      expect(isFormletterError(error)).toBe(true);
      expect(error.code).toBe("template_invalid");
      expect(error.template).toBe("visit_note");
      expect(error.slot).toBe("day");
      expect(error.message).toContain('"visit_note"');
      expect(error.message).toContain('"day"');
      for (const pattern of says) expect(error.message).toMatch(pattern);
    }
  });

  it("an `as` that is not a format", () => {
    const error = thrown(() =>
      defineTemplate(
        records,
        config({
          body: "Room {{room}}.",
          slots: { room: slot.ref("appointments", { show: "room", as: "text" as never }) },
        }),
      ),
    );
    expect(error.code).toBe("template_invalid");
    expect(error.slot).toBe("room");
  });
});

describe("records and templates belong together", () => {
  it("a template refuses slots built for a collection its records do not declare", () => {
    const other = defineRecords({
      rooms: z.object({ id: z.string(), label: z.string() }),
      patients: z.object({ id: z.string(), email: z.email() }),
    });
    const error = thrown(() =>
      defineTemplate(
        records,
        config({ slots: { room: other.slot.ref("rooms", { show: "label" }) as never } }),
      ),
    );
    expect(error.code).toBe("template_invalid");
    expect(error.message).toContain('"rooms"');
  });
});

describe("match is checked at definition time", () => {
  const withMatch = (match: Record<string, string>, order: "after" | "before" = "after") => {
    const appointment = slot.ref("appointments", { show: "room" });
    const doctor = slot.ref("clinicians", { show: "name", match: match as never });
    return defineTemplate(
      records,
      config({
        body: "Room {{appointment}} with {{doctor}}, {{prep}}.",
        slots:
          order === "after"
            ? { appointment, prep: slot.choice({ none: "nothing" }), doctor }
            : { doctor, appointment, prep: slot.choice({ none: "nothing" }) },
      }),
    );
  };

  it("accepts a join to an earlier ref slot's field", () => {
    expect(() => withMatch({ id: "appointment.clinicianId" })).not.toThrow();
  });

  it.each<[string, () => unknown, RegExp]>([
    [
      "a field the collection does not have",
      () => withMatch({ clinicId: "appointment.clinicianId" }),
      /"clinicId"/,
    ],
    ["a path without a field", () => withMatch({ id: "appointment" }), /<earlier ref slot>\.<field>/],
    [
      "a path with too many parts",
      () => withMatch({ id: "appointment.clinicianId.x" }),
      /appointment\.clinicianId\.x/,
    ],
    ["an unknown slot", () => withMatch({ id: "visit.clinicianId" }), /visit\.clinicianId/],
    [
      "a later slot",
      () => withMatch({ id: "appointment.clinicianId" }, "before"),
      /appointment\.clinicianId/,
    ],
    ["a choice slot", () => withMatch({ id: "prep.none" }), /prep\.none/],
    [
      "a field the other collection does not have",
      () => withMatch({ id: "appointment.doctorId" }),
      /"doctorId"/,
    ],
  ])("rejects %s", (_name, define, says) => {
    const error = thrown(define);
    expect(error.code).toBe("template_invalid");
    expect(error.slot).toBe("doctor");
    expect(error.message).toContain('"visit_note"');
    expect(error.message).toMatch(says);
  });
});
