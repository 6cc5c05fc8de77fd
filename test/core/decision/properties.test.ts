import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HandleEntry } from "../../../src/core/decision/catalog.js";
import { sanitizeValue } from "../../../src/core/message/sanitize.js";
import {
  type Decision,
  escalationReasons,
  format,
  type SendDecision,
  type Template,
} from "../../../src/index.js";
import {
  catalog,
  noticeBody,
  prepChoices,
  reminderBody,
  reminderHtml,
  whyChoices,
} from "../../fixtures/clinic.js";
import { invisibleOrControl } from "../../fixtures/expect.js";
import { propertyRuns } from "../../fixtures/property-runs.js";

// A fixed seed: every run of the suite checks the same cases (change it to explore others).
fc.configureGlobal({ seed: 20260302 });

// ---- records -------------------------------------------------------------------------------------

const corpus = [
  "https://evil.com/reset?u=1",
  "www.evil.com",
  "evil.io/x",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  '<a href="https://evil.com">x</a>',
  "![p](https://evil.com/p.png)",
  "[click](javascript:alert(1))",
  "{{patient}}",
  "{{{to}}}",
  "{{#prep.fasting}}x{{/prep.fasting}}",
  "\r\nBcc: eve@evil.example",
  "eve@evil.example",
  "+1 415 555 0100",
  "0151 2345 6789",
  "123e4567-e89b-12d3-a456-426614174000",
  "\u202E\u2066\u200B\uFEFF\u00AD",
  "\u0000\u0007\u001B[31m\u007F\u0085",
  "\t    \n\n\n",
  "Zoë Ünal",
  "😀👩‍⚕️",
  "G".repeat(250),
];

/** Any UTF-16 code unit from the first planes, controls, bidi and zero-width characters included. */
const anyUnit = fc.integer({ min: 0, max: 0x2fff }).map((code) => String.fromCharCode(code));

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: anyUnit, maxLength: 30 }),
  fc.constantFrom(...corpus),
  fc
    .array(fc.oneof(fc.constantFrom(...corpus), fc.string({ unit: "grapheme", maxLength: 8 })), {
      maxLength: 4,
    })
    .map((parts) => parts.join(" ")),
  fc.emailAddress(),
  fc.webUrl(),
);

/** Text the scanner and sanitiser leave alone: it must always be sent. */
const lower = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz");
const upper = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ");
const plainWord = fc
  .tuple(upper, fc.string({ unit: lower, minLength: 1, maxLength: 9 }))
  .map(([a, b]) => a + b);
const numbered = (prefix: string) => fc.nat(9999).map((n) => `${prefix}-${n}`);
const plainName = fc.tuple(plainWord, plainWord).map(([a, b]) => `${a} ${b}`);

const id = fc.oneof(
  fc.tuple(upper, fc.nat(9999)).map(([letter, n]) => `${letter}-${n}`),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const isoDate = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString());

type Row = Record<string, unknown> & { id: string };
interface RandomTicket {
  ticketId: string;
  patients: Row[];
  clinicians: Row[];
  appointments: Row[];
  staff: Row[];
}

/** Random tickets: hostile values everywhere; now and then a record that fails its schema. */
const hostileTicket: fc.Arbitrary<RandomTicket> = fc
  .uniqueArray(id, { minLength: 1, maxLength: 3 })
  .chain((patientIds) =>
    fc.record({
      ticketId: fc.oneof(fc.constant("T-1"), fc.string({ minLength: 1, maxLength: 20 })),
      patients: fc.tuple(
        ...patientIds.map((pid) =>
          fc.record({
            id: fc.constant(pid),
            // A marker the model is never shown: no hint may carry it.
            name: hostile.map((text) => `Zqx${text}`),
            email: fc.oneof(
              fc.emailAddress(),
              fc.emailAddress().map((e) => ` ${e.toUpperCase()} `),
              hostile.map((text) => `zqx${text}`),
            ),
            phone: fc.oneof(fc.constantFrom("030 12345678", "+44 20 7946 0958", "+1 415 555 2671"), hostile),
            message: fc.option(hostile, { nil: undefined }),
            diagnosis: fc.option(hostile, { nil: undefined }),
          }),
        ),
      ),
      clinicians: fc.tuple(
        fc.record({
          id: fc.constant("C-1"),
          name: hostile,
          email: fc.constant("grace@clinic.example.com"),
          pager: fc.constant("1"),
        }),
        fc.record({
          id: fc.constant("C-2"),
          name: hostile,
          email: fc.constant("alan@clinic.example.com"),
          pager: fc.constant("2"),
        }),
      ),
      appointments: fc.uniqueArray(id, { maxLength: 3 }).chain((ids) =>
        fc.tuple(
          ...ids.map((aid) =>
            fc.record({
              id: fc.constant(aid),
              patientId: fc.oneof(fc.constantFrom(...patientIds), id),
              clinicianId: fc.constantFrom("C-1", "C-2", "C-9"),
              startsAt: fc.oneof({ weight: 5, arbitrary: isoDate }, { weight: 1, arbitrary: hostile }),
              room: hostile,
              fee: fc.oneof(
                { weight: 10, arbitrary: fc.integer() },
                { weight: 1, arbitrary: fc.constant("12") },
              ),
              currency: fc.constantFrom("EUR", "usd", "EURO", "<b>"),
              status: fc.oneof(
                { weight: 10, arbitrary: fc.constantFrom("booked", "cancelled") },
                { weight: 1, arbitrary: hostile },
              ),
            }),
          ),
        ),
      ),
      staff: fc.array(
        fc.record({
          id: fc.string({ minLength: 1, maxLength: 6 }),
          chatId: fc.oneof(fc.constant("U024BE7LH"), hostile),
          role: fc.constantFrom("nurse", "doctor"),
        }),
        { maxLength: 2 },
      ),
    }),
  ) as fc.Arbitrary<RandomTicket>;

/** Tickets whose values are plain words and valid addresses: a well-aimed proposal must be sent. */
const cleanTicket: fc.Arbitrary<RandomTicket> = fc
  .uniqueArray(numbered("P"), { minLength: 1, maxLength: 3 })
  .chain((patientIds) =>
    fc.record({
      ticketId: numbered("T"),
      patients: fc.tuple(
        ...patientIds.map((pid) =>
          fc.record({
            id: fc.constant(pid),
            name: plainName,
            email: fc
              .tuple(
                fc.string({ unit: lower, minLength: 1, maxLength: 10 }),
                fc.constantFrom("Example.org", "mail.example.com"),
              )
              .map(([local, host]) => `${local}@${host}`),
            phone: fc.constant("030 12345678"),
          }),
        ),
      ),
      clinicians: fc.constant([
        { id: "C-1", name: "Dr Grace Hopper", email: "grace@clinic.example.com", pager: "1" },
        { id: "C-2", name: "Dr Alan Turing", email: "alan@clinic.example.com", pager: "2" },
      ]),
      appointments: fc.uniqueArray(numbered("A"), { minLength: 1, maxLength: 3 }).chain((ids) =>
        fc.tuple(
          ...ids.map((aid, index) =>
            fc.record({
              id: fc.constant(aid),
              patientId: fc.constantFrom(...patientIds),
              clinicianId: fc.constantFrom("C-1", "C-2"),
              startsAt: isoDate,
              room: fc.tuple(upper, fc.nat(999)).map(([letter, n]) => `${letter}${n}`),
              fee: fc.nat(100_000),
              currency: fc.constant("EUR"),
              // The first appointment is booked, so every ticket has one to remind of.
              status: index === 0 ? fc.constant("booked") : fc.constantFrom("booked", "cancelled"),
            }),
          ),
        ),
      ),
      staff: fc.constant([]),
    }),
  ) as fc.Arbitrary<RandomTicket>;

// ---- outputs -------------------------------------------------------------------------------------

const entryCache = new WeakMap<object, readonly HandleEntry[]>();

function entriesOf(ticket: object): readonly HandleEntry[] {
  const cached = entryCache.get(ticket);
  if (cached !== undefined) return cached;
  const prepared = catalog.prepare(ticket);
  const entries = prepared.ok ? catalog.handles(prepared.ticket).entries : [];
  entryCache.set(ticket, entries);
  return entries;
}

const recase = (text: string) =>
  fc.constantFrom(text, text.toUpperCase(), [...text].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join(""));

/** Each slot a template lets the model fill, with what it takes. */
function chosenSlots(template: Template) {
  return [...template.slots, template.recipient].filter((compiled) => compiled.slot.kind !== "derived");
}

/** A proposal for one template with, per slot, a handle of the right collection or a key (or nothing). */
function aimedAt(template: Template, entries: readonly HandleEntry[]): fc.Arbitrary<unknown> {
  const slots = chosenSlots(template).map((compiled) => {
    const { slot } = compiled;
    const options =
      slot.kind === "choice"
        ? [...compiled.keys.keys()]
        : entries
            .filter((entry) => slot.kind === "ref" && entry.collection === slot.collection)
            .map((e) => e.handle);
    const value = options.length === 0 ? fc.constant(undefined) : fc.constantFrom(...options).chain(recase);
    return fc.option(value, { nil: undefined, freq: 5 }).map((chosen) => [compiled.name, chosen] as const);
  });
  return fc.tuple(...slots).chain((pairs) =>
    recase(template.id).map((templateId) => ({
      template: templateId,
      slots: Object.fromEntries(pairs.filter(([, chosen]) => chosen !== undefined)),
    })),
  );
}

function outputFor(ticket: RandomTicket): fc.Arbitrary<unknown> {
  const entries = entriesOf(ticket);
  const handles = entries.length === 0 ? ["p-0000"] : entries.map((e) => e.handle);
  const keys = ["fasting", "documents", "none", "repairs", "cleaning", "pain", "late", "day", "today"];
  const slotValue = fc.oneof(
    fc.constantFrom(...handles),
    fc.constantFrom(...keys),
    hostile,
    fc.constant(null),
    fc.integer(),
    fc.constantFrom("__proto__", "constructor", "toString"),
  );
  const slotName = fc.constantFrom(
    "appointment",
    "patient",
    "clinician",
    "prep",
    "why",
    "to",
    "need",
    "urgency",
    "visits",
    "cc",
    "body",
    "__proto__",
  );
  const templateId = fc.constantFrom(
    ...catalog.templates.map((t) => t.id),
    "nope",
    "__proto__",
    "constructor",
  );
  const loose = fc.record(
    { template: templateId, slots: fc.dictionary(slotName, slotValue, { maxKeys: 6 }), to: hostile },
    { requiredKeys: ["template"] },
  );
  const aimed = fc.constantFrom(...catalog.templates).chain((template) => aimedAt(template, entries));
  return fc.oneof(
    fc.anything(),
    fc.string(),
    fc.json(),
    loose,
    loose.map((o) => JSON.stringify(o)),
    fc.record({
      escalate: fc.oneof(fc.constantFrom(...catalog.escalationCodes), hostile),
      note: fc.option(hostile),
    }),
    { weight: 4, arbitrary: aimed },
    aimed.map((o) => JSON.stringify(o)),
  );
}

const hostileCase = hostileTicket.chain((ticket) => outputFor(ticket).map((output) => ({ ticket, output })));

// ---- the oracle: a message recomputed from records and choices, not through decide ----------------

// Own instances, built here: the oracle shares no state with the fixture's formats.
const berlinDay = format.date("d MMM yyyy", { timeZone: "Europe/Berlin" });
const berlinTime = format.date("HH:mm", { timeZone: "Europe/Berlin" });

function formatted(result: ReturnType<typeof berlinDay.apply>): string {
  if (!result.ok) throw new Error(`oracle: a sent value failed to format: ${result.problem}`);
  return result.value;
}

/** Mustache with value tags and choice-key sections only, rendered in one pass over the template text. */
function render(
  template: string,
  values: Readonly<Record<string, string>>,
  chosen: Readonly<Record<string, string>>,
  escapeValue: (value: string) => string = (value) => value,
): string {
  return template
    .replace(
      /\{\{#([a-z_]+)\.([a-z_-]+)\}\}([\s\S]*?)\{\{\/\1\.\2\}\}/g,
      (_all, slot: string, key: string, inner: string) => (chosen[slot] === key ? inner : ""),
    )
    .replace(/\{\{([a-z_.]+)\}\}/g, (_all, tag: string) => {
      const value = values[tag];
      if (value === undefined) throw new Error(`oracle: no value for {{${tag}}}`);
      return escapeValue(value);
    });
}

const html = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** The record a handle of `collection` names in this ticket. */
function recordOf(ticket: RandomTicket, collection: keyof RandomTicket, handle: string | undefined): Row {
  const entry = entriesOf(ticket).find((e) => e.collection === collection && e.handle === handle);
  const record = (ticket[collection] as Row[]).find((row) => row.id === entry?.id);
  if (record === undefined) throw new Error(`oracle: ${String(handle)} names no ${collection} record`);
  return record;
}

const normalisedEmail = (value: unknown) => String(value).trim().toLowerCase();

/** Checks a send of room_notice or appointment_reminder against the oracle; other templates by invariants. */
function checkSend(ticket: RandomTicket, decision: SendDecision): void {
  const { message, choices } = decision;
  // Nothing outside the one recipient; subject on one line; no control, bidi or zero-width characters.
  for (const key of Object.keys(message))
    expect(["channel", "html", "sms", "subject", "template", "text", "to"]).toContain(key);
  expect(message.subject ?? "").not.toMatch(/[\r\n]/);
  expect(message.text).not.toMatch(invisibleOrControl);
  expect(message.text).not.toMatch(/(?:https?|javascript):\/{0,2}[^\s[]/i);
  expect(message.text).not.toMatch(/[<>]/);

  if (decision.template === "room_notice" || decision.template === "appointment_reminder") {
    const appointment = recordOf(ticket, "appointments", choices.appointment);
    const patient = recordOf(ticket, "patients", choices.patient);
    const recipient = recordOf(ticket, "patients", choices.to);
    expect(appointment.status).toBe("booked");
    expect(patient.id).toBe(appointment.patientId);
    // The recipient is the normalised address of a record that passes the `to` slot's where.
    expect(recipient.id).toBe(appointment.patientId);
    expect(message.to).toBe(normalisedEmail(recipient.email));

    const values: Record<string, string> = {
      "appointment.day": formatted(berlinDay.apply(appointment.startsAt, appointment)),
      "appointment.time": formatted(berlinTime.apply(appointment.startsAt, appointment)),
      "appointment.room": sanitizeValue(String(appointment.room)),
      patient: sanitizeValue(String(patient.name)),
    };
    if (decision.template === "room_notice") {
      values.why = whyChoices[choices.why as keyof typeof whyChoices];
      expect(message.subject).toBe(render("Room change: {{appointment.room}}", values, choices));
      expect(message.text).toBe(render(noticeBody, values, choices));
    } else {
      values.clinician = sanitizeValue(String(recordOf(ticket, "clinicians", choices.clinician).name));
      values.prep = prepChoices[choices.prep as keyof typeof prepChoices];
      expect(recordOf(ticket, "clinicians", choices.clinician).id).toBe(appointment.clinicianId);
      expect(message.subject).toBe(render("Your appointment on {{appointment.day}}", values, choices));
      expect(message.text).toBe(render(reminderBody, values, choices));
      expect(message.html).toBe(render(reminderHtml, values, choices, html));
    }
    return;
  }
  // Every other template: the recipient is the address of the record chosen for `to`.
  const collection =
    decision.template === "clinician_handover"
      ? "clinicians"
      : decision.template === "oncall_page"
        ? "staff"
        : "patients";
  const recipient = recordOf(ticket, collection, choices.to);
  // …and it passes the `to` slot's condition.
  const appointment =
    choices.appointment === undefined ? undefined : recordOf(ticket, "appointments", choices.appointment);
  if (decision.template === "sms_reminder" || decision.template === "cancellation_notice") {
    expect(recipient.id).toBe(appointment?.patientId);
  }
  if (decision.template === "clinician_handover") expect(recipient.id).toBe(appointment?.clinicianId);
  if (decision.template === "oncall_page") expect(recipient.role).toBe("nurse");
  if (message.channel === "email") expect(message.to).toBe(normalisedEmail(recipient.email));
  if (message.channel === "chat") expect(message.to).toBe(recipient.chatId);
  if (message.channel === "sms" || message.channel === "whatsapp") {
    const e164 = format.phone({ defaultCountry: "DE" }).address?.(recipient.phone);
    expect(e164?.ok && e164.value).toBe(message.to);
  }
}

function decideSafely(output: unknown, ticket: unknown): Decision {
  let decision: Decision | undefined;
  expect(() => {
    decision = catalog.decide(output, ticket as never);
  }).not.toThrow();
  const result = decision as Decision;
  expect(["send", "escalate"]).toContain(result.outcome);
  if (result.outcome === "escalate") {
    expect(escalationReasons).toContain(result.reason);
    expect(typeof result.detail).toBe("string");
    if (result.hint !== undefined) {
      expect(typeof result.hint).toBe("string");
      // Hints list ids, handles and keys: never a name or address the model was not shown.
      expect(result.hint.toLowerCase()).not.toContain("zqx");
      expect(result.hint).not.toContain("@");
    }
    expect(result).not.toHaveProperty("message");
  }
  return result;
}

// ---- properties ----------------------------------------------------------------------------------

describe("decide on random output and random records", () => {
  it("never throws, always returns a send or a reasoned escalation; every send is template text plus record values", () => {
    const seen = { send: 0, escalate: 0, oracle: 0 };
    fc.assert(
      fc.property(hostileCase, ({ ticket, output }) => {
        const decision = decideSafely(output, ticket);
        seen[decision.outcome]++;
        if (decision.outcome === "send") {
          checkSend(ticket, decision);
          if (decision.template === "room_notice" || decision.template === "appointment_reminder")
            seen.oracle++;
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
    // The run is seeded: these guard against a generator that stops producing sends at all.
    expect(seen.escalate).toBeGreaterThan(0);
    expect(seen.send).toBeGreaterThan(0);
    expect(seen.oracle).toBeGreaterThan(0);
  });

  it("random junk as records never throws either", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (records, output) => {
        decideSafely(output, records);
        decideSafely(output, { ticketId: "T-1", patients: records });
        decideSafely(output, { ticketId: "T-1", appointments: [records] });
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe("well-aimed proposals on clean records", () => {
  it("are sent, exactly as the oracle renders them, whatever the case of handles and keys", () => {
    const clean = cleanTicket.chain((ticket) => {
      const entries = entriesOf(ticket);
      const handle = (collection: string, rowId: string) =>
        entries.find((e) => e.collection === collection && e.id === rowId)?.handle ?? "missing";
      const booked = ticket.appointments.filter((a) => a.status === "booked");
      return fc
        .record({
          ticket: fc.constant(ticket),
          appointment: fc.constantFrom(...booked),
          template: fc.constantFrom("room_notice", "appointment_reminder"),
          key: fc.constantFrom("fasting", "documents", "none"),
          why: fc.constantFrom("repairs", "cleaning"),
          upper: fc.boolean(),
        })
        .map(({ appointment, template, key, why, upper }) => {
          const clinician = handle("clinicians", String(appointment.clinicianId));
          const patient = handle("patients", String(appointment.patientId));
          const slots: Record<string, string> =
            template === "room_notice"
              ? { appointment: handle("appointments", appointment.id), patient, why, to: patient }
              : {
                  appointment: handle("appointments", appointment.id),
                  patient,
                  clinician,
                  prep: key,
                  to: patient,
                };
          const cased = upper
            ? Object.fromEntries(Object.entries(slots).map(([k, v]) => [k, v.toUpperCase()]))
            : slots;
          return { ticket, output: { template, slots: cased } };
        });
    });
    fc.assert(
      fc.property(clean, ({ ticket, output }) => {
        const decision = decideSafely(output, ticket);
        expect(decision).toMatchObject({ outcome: "send" });
        if (decision.outcome === "send") checkSend(ticket, decision);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("the idempotency key depends on the choices, not on their spelling", () => {
    fc.assert(
      fc.property(cleanTicket, fc.constantFrom("repairs", "cleaning"), (ticket, why) => {
        const booked = ticket.appointments[0] as Row;
        const entries = entriesOf(ticket);
        const appointment =
          entries.find((e) => e.collection === "appointments" && e.id === booked.id)?.handle ?? "";
        const lower = catalog.decide(
          { template: "room_notice", slots: { appointment, why } },
          ticket as never,
        );
        const upper = catalog.decide(
          {
            template: "ROOM_NOTICE",
            slots: { appointment: appointment.toUpperCase(), why: why.toUpperCase() },
          },
          ticket as never,
        );
        const other = catalog.decide(
          {
            template: "room_notice",
            slots: { appointment, why: why === "repairs" ? "cleaning" : "repairs" },
          },
          ticket as never,
        );
        // With several patients the omitted ones may not resolve: compare only when all three were sent.
        if (lower.outcome !== "send" || upper.outcome !== "send" || other.outcome !== "send") return;
        expect(upper.key).toBe(lower.key);
        expect(other.key).not.toBe(lower.key);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe("handles on random ids", () => {
  it("are unique within a collection, short, lower-case and never the id", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 60 }),
        (ids) => {
          const ticket = {
            ticketId: "T",
            staff: ids.map((sid) => ({ id: sid, chatId: "U1", role: "nurse" })),
          };
          const handles = catalog.handles(ticket as never).entries.map((e) => e.handle);
          expect(new Set(handles).size).toBe(ids.length);
          for (const handle of handles) expect(handle).toMatch(/^s-[0-9a-f]{4,}$/);
          // An id of five or more characters cannot hide in four hex digits: a handle that held it would leak it.
          for (const [index, handle] of handles.entries()) {
            const recordId = String(ids[index]).toLowerCase();
            if (recordId.length >= 5) expect(handle.slice(handle.indexOf("-") + 1)).not.toContain(recordId);
          }
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});
