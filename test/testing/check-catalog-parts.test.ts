import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/core/definition/channels.js";
import { compileBody, renderParts } from "../../src/core/definition/text-parts.js";
import { sanitizeValue } from "../../src/core/message/sanitize.js";
import {
  type Catalog,
  createCatalog,
  type Decision,
  defineTemplate,
  format,
  type Template,
} from "../../src/index.js";
import { checkCatalog, hostileStrings } from "../../src/testing/index.js";
import { clinicTicket, records } from "../fixtures/clinic.js";

const { slot } = records;

/** The patient's name appears in the HTML only: the subject and text are fixed. */
const greeting = defineTemplate(records, {
  id: "greeting",
  description: "Greets a patient by name in the HTML part",
  audience: "patient",
  effect: "informational",
  channel: "email",
  to: slot.ref("patients", { show: "email", as: format.email() }),
  subject: "Hello",
  body: "Hello, see you soon.",
  html: '<p title="for {{patient}}">Hello <b>{{patient}}</b>, see you soon.</p>',
  slots: { patient: slot.ref("patients", { show: "name" }) },
  limits: { perTicket: 1, perDay: 10 },
});
const catalog = createCatalog(records, [greeting]) as unknown as Catalog;
const ticket = clinicTicket();

type Ticket = ReturnType<typeof clinicTicket>;

/**
 * The catalog as it would be if decide() did not scan the HTML: it decides on the ticket with clean
 * names, then places the real (sanitised) name into the values and the HTML, as rendering would.
 */
function withoutHtmlScan(inner: Catalog): Catalog {
  const decide = (output: unknown, records_: unknown): Decision => {
    const real = records_ as Ticket;
    if (!Array.isArray(real?.patients)) return inner.decide(output, records_);
    const clean = {
      ...real,
      patients: real.patients.map((patient) => ({ ...patient, name: "Ada Lovelace" })),
    };
    const decision = inner.decide(output, clean);
    if (decision.outcome !== "send") return inner.decide(output, records_);
    const chosen = inner.handles(clean).entries.find((entry) => entry.handle === decision.choices.patient);
    const name = real.patients.find((patient) => patient.id === chosen?.id)?.name ?? "";
    const values = { ...decision.values, patient: sanitizeValue(name) };
    const html = renderParts(greeting.html ?? [], new Map(Object.entries(values)), {}, escapeHtml);
    return { ...decision, values, message: { ...decision.message, html: html as string } };
  };
  return { ...inner, decide } as Catalog;
}

/** The catalog with its template's HTML swapped, after definition, for HTML that puts the name in an href. */
function withHrefValue(inner: Catalog): Catalog {
  const parts = compileBody(
    '<p>Hello <a href="https://clinic.example/p/{{patient}}">you</a></p>',
    "html",
  ).parts;
  const bad = { ...greeting, html: parts } as Template;
  const decide = (output: unknown, records_: unknown): Decision => {
    const decision = inner.decide(output, records_);
    if (decision.outcome !== "send") return decision;
    const html = renderParts(parts, new Map(Object.entries(decision.values)), {}, escapeHtml);
    return { ...decision, message: { ...decision.message, html: html as string } };
  };
  return { ...inner, templates: [bad], template: () => bad, decide } as Catalog;
}

describe("checkCatalog: every part of every message", () => {
  it("finds no failure in a catalog whose HTML alone shows a record's text", () => {
    const report = checkCatalog(catalog, ticket, { runs: 400, seed: 7 });
    expect(report.failures).toEqual([]);
    expect(report.sends).toBeGreaterThan(0);
    expect(report.escalations.content_flagged ?? 0).toBeGreaterThan(0);
  });

  it("reports a hostile value that only appears in the HTML, when decide() does not scan the HTML", () => {
    const report = checkCatalog(withoutHtmlScan(catalog), ticket, { runs: 400, seed: 7 });
    const unscanned = report.failures.filter((failure) => failure.property === "every_part_scanned");
    expect(unscanned.length).toBeGreaterThan(0);
    expect(unscanned[0]?.detail).toMatch(/html/);
    expect(unscanned.every((failure) => failure.hostileRecords)).toBe(true);
  });

  it("reports a value that lands in a URL attribute of the sent HTML", () => {
    const report = checkCatalog(withHrefValue(catalog), ticket, { runs: 100, seed: 7 });
    expect(report.sends).toBeGreaterThan(0);
    const misplaced = report.failures.filter((failure) => failure.property === "html_values_in_text");
    expect(misplaced.length).toBe(report.sends);
    expect(misplaced[0]?.detail).toMatch(/\{\{patient\}\} landed in the href attribute of <a>/);
  });

  it("ships hostile text aimed at HTML parts and at dates", () => {
    expect(hostileStrings).toContain('" onmouseover="alert(1)" x="');
    expect(hostileStrings).toContain("eve&#64;evil&#46;example");
    expect(hostileStrings).toContain("2024-02-30");
    expect(hostileStrings).toContain("2026-05-31T10:00:00");
  });
});
