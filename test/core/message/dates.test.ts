import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { FormatResult } from "../../../src/core/message/format.js";
import { createCatalog, defineTemplate, format } from "../../../src/index.js";
import { clinicTicket, handleOf, records } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";
import { propertyRuns } from "../../fixtures/property-runs.js";

function value(result: FormatResult): string {
  if (!result.ok) throw new Error(`expected a value, got: ${result.problem}`);
  return result.value;
}

function problem(result: FormatResult): string {
  if (result.ok) throw new Error(`expected a problem, got the value ${result.value}`);
  return result.problem;
}

// Zones on both sides of the date line and with half-hour offsets: a date-only value must not move.
const zones = [
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
  "America/Los_Angeles",
  "Asia/Kathmandu",
  "UTC",
  "Pacific/Chatham",
];

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe("format.date: a date-only value is a calendar date", () => {
  it.each(zones)("shows 2026-05-31 as 31 May in %s, whatever the machine's zone", (timeZone) => {
    for (const machine of ["Pacific/Kiritimati", "America/Los_Angeles"]) {
      process.env.TZ = machine;
      const day = format.date("EEEE d MMMM yyyy", { timeZone });
      expect(value(day.apply("2026-05-31", {}))).toBe("Sunday 31 May 2026");
    }
  });

  it.each([
    ["a leap day", "2024-02-29", "29 Feb 2024"],
    ["the first day of a year", "2027-01-01", "1 Jan 2027"],
    ["the last day of a year", "2026-12-31", "31 Dec 2026"],
    ["a year before 100", "0099-03-01", "1 Mar 0099"],
  ])("shows %s as itself", (_name, raw, expected) => {
    expect(value(format.date("d MMM yyyy", { timeZone: "Pacific/Kiritimati" }).apply(raw, {}))).toBe(
      expected,
    );
  });

  it.each(["HH:mm", "d MMM p", "d MMM yyyy zzz", "h a"])(
    "refuses a calendar date in a pattern that shows a time or zone (%s)",
    (pattern) => {
      expect(problem(format.date(pattern, { timeZone: "UTC" }).apply("2026-05-31", {}))).toMatch(
        /calendar date/,
      );
    },
  );

  it("quoted letters in a pattern are not time tokens", () => {
    expect(value(format.date("d MMM 'at the shop'", { timeZone: "UTC" }).apply("2026-05-31", {}))).toBe(
      "31 May at the shop",
    );
  });
});

describe("format.date: impossible dates are invalid, never rolled over", () => {
  it.each([
    "2024-02-30",
    "2026-13-01",
    "2026-02-29",
    "2026-04-31",
    "2026-00-10",
    "2026-01-00",
    "2026-05-31T24:00:00Z",
    "2026-05-31T10:60:00Z",
    "2026-05-31T10:00:60Z",
    "2026-02-29T10:00:00Z",
    "2026-05-31T10:00:00+25:00",
    "2026-5-31",
    "31/05/2026",
    "2026-05-31junk",
    "2026-05-31T10:00:00Zjunk",
    "+275760-09-13",
  ])("refuses %j", (raw) => {
    problem(format.date("d MMM yyyy", { timeZone: "UTC" }).apply(raw, {}));
  });

  it("accepts exactly the days of the calendar, and shows each as itself in any zone", () => {
    const formats = zones.map((timeZone) => format.date("yyyy-MM-dd", { timeZone }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: zones.length - 1 }),
        (year, month, day, zone) => {
          const text = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          // The oracle: a day exists when the UTC calendar does not roll it over.
          const rolled = new Date(Date.UTC(year, month - 1, day));
          const exists =
            month >= 1 && day >= 1 && rolled.getUTCMonth() === month - 1 && rolled.getUTCDate() === day;
          const result = (formats[zone] as ReturnType<typeof format.date>).apply(text, {});
          expect(result.ok, text).toBe(exists);
          if (result.ok) expect(result.value).toBe(text);
        },
      ),
      { numRuns: propertyRuns(2000), seed: 20260531 },
    );
  });

  it("accepts 29 February in a leap year and 2000 (divisible by 400)", () => {
    const day = format.date("d MMM yyyy", { timeZone: "UTC" });
    expect(value(day.apply("2000-02-29", {}))).toBe("29 Feb 2000");
    problem(day.apply("1900-02-29", {}));
  });
});

describe("format.date: an offset-less date-time needs a zone", () => {
  it("is refused when neither the value nor the format names its zone", () => {
    const when = format.date("d MMM HH:mm", { timeZone: "Europe/Berlin" });
    expect(problem(when.apply("2026-05-31T10:00:00", {}))).toMatch(/without a UTC offset.*sourceZone/);
  });

  it.each([
    ["2026-05-31T10:00:00Z", "31 May 12:00"],
    ["2026-05-31T10:00:00+02:00", "31 May 10:00"],
    ["2026-05-31T10:00:00.123-0700", "31 May 19:00"],
    ["2026-05-31 10:00Z", "31 May 12:00"],
    ["2026-05-31t10:00:00z", "31 May 12:00"],
  ])("%s, with its offset, is an instant", (raw, expected) => {
    expect(value(format.date("d MMM HH:mm", { timeZone: "Europe/Berlin" }).apply(raw, {}))).toBe(expected);
  });

  it("is read in the format's sourceZone", () => {
    const when = format.date("d MMM HH:mm", { timeZone: "Asia/Tokyo", sourceZone: "America/New_York" });
    // 10:00 in New York (EDT, UTC-4) is 23:00 in Tokyo.
    expect(value(when.apply("2026-05-31T10:00:00", {}))).toBe("31 May 23:00");
  });

  it("is read in the zone a field of the same record names", () => {
    const when = format.date("d MMM HH:mm", { timeZone: "UTC", sourceZoneField: "zone" });
    expect(value(when.apply("2026-05-31T10:00:00", { zone: "Asia/Kolkata" }))).toBe("31 May 04:30");
    expect(value(when.apply("2026-05-31T10:00:00", { zone: "Europe/Lisbon" }))).toBe("31 May 09:00");
    expect(problem(when.apply("2026-05-31T10:00:00", { zone: "Mars/Base" }))).toMatch(/time zone/);
    expect(problem(when.apply("2026-05-31T10:00:00", {}))).toMatch(/time zone/);
  });

  it("refuses a local time the clocks skip, or pass twice", () => {
    const when = format.date("d MMM HH:mm", { timeZone: "UTC", sourceZone: "Europe/Berlin" });
    expect(problem(when.apply("2026-03-29T02:30:00", {}))).toMatch(/does not exist/);
    expect(problem(when.apply("2026-10-25T02:30:00", {}))).toMatch(/occurs twice/);
    expect(value(when.apply("2026-10-25T03:30:00", {}))).toBe("25 Oct 02:30");
  });

  it("a bad sourceZone is a definition error of the template that uses the format", () => {
    const broken = format.date("d MMM", { timeZone: "UTC", sourceZone: "Europe/Atlantis" });
    expect(broken.problem).toMatch(/sourceZone/);
  });
});

describe("format.date: Date objects and epoch milliseconds stay instants", () => {
  it.each(zones)("shows a Date in the format's zone (%s), not the machine's", (timeZone) => {
    const instant = new Date(Date.UTC(2026, 4, 31, 23, 30));
    const results = ["Pacific/Kiritimati", "America/Los_Angeles"].map((machine) => {
      process.env.TZ = machine;
      return value(format.date("yyyy-MM-dd HH:mm", { timeZone }).apply(instant, {}));
    });
    expect(results[0]).toBe(results[1]);
    const expected = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(instant);
    expect(results[0]?.slice(0, 10)).toBe(expected);
  });
});

describe("decide: a bad date escalates, a calendar date sends the same day everywhere", () => {
  const due = format.date("d MMM yyyy", { timeZone: "America/Los_Angeles" });
  const template = defineTemplate(records, {
    id: "visit_day",
    description: "Tells a patient the day of their visit",
    audience: "patient",
    effect: "informational",
    channel: "email",
    to: records.slot.ref("patients", { show: "email", as: format.email() }),
    subject: "Your visit on {{visit}}",
    body: "Your visit is on {{visit}}.",
    slots: { visit: records.slot.ref("appointments", { show: "startsAt", as: due }) },
    limits: { perTicket: 1, perDay: 10 },
  });
  const catalog = createCatalog(records, [template]);

  function decideFor(startsAt: string) {
    const base = clinicTicket();
    const ticket = clinicTicket({
      appointments: base.appointments.map((appointment) => ({ ...appointment, startsAt })),
    });
    const proposal = {
      template: "visit_day",
      slots: { visit: handleOf(ticket, "appointments", "A-1"), to: handleOf(ticket, "patients", "P-1") },
    };
    return catalog.decide(proposal, ticket);
  }

  it("sends 2026-05-31 as 31 May in Los Angeles, with the machine in Kiritimati", () => {
    process.env.TZ = "Pacific/Kiritimati";
    expect(expectSend(decideFor("2026-05-31")).message.subject).toBe("Your visit on 31 May 2026");
  });

  it.each(["2024-02-30", "2026-13-01", "2026-02-29", "2026-05-31T10:00:00"])(
    "escalates %j as slot_rejected with the problem",
    (startsAt) => {
      const decision = expectEscalation(decideFor(startsAt), "slot_rejected");
      expect(decision.detail).toMatch(/visit/);
      expect(decision.detail).toMatch(/not a date|offset/);
    },
  );
});
