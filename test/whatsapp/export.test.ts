import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { twilioTransport } from "../../src/providers/index.js";
import { exportWhatsapp } from "../../src/whatsapp/export.js";
import { cli } from "../cli/run.js";
import { expectSend } from "../fixtures/expect.js";
import { catalog, hotelTicket } from "../fixtures/whatsapp-catalog.js";
import { json, useLoopback } from "../providers/loopback.js";
import { metaTemplate, twilioContent } from "./template-schemas.js";

const fixture = join(import.meta.dirname, "../fixtures/whatsapp-catalog.ts");
const loopback = useLoopback(json(201, { sid: `SM${"0".repeat(32)}`, status: "queued" }));
const samples = [hotelTicket("en"), hotelTicket("pt-BR")];

function samplesFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "formletter-wa-"));
  const file = join(dir, "records.json");
  writeFileSync(file, JSON.stringify(samples));
  return file;
}

function bookingHandle(ticket = hotelTicket()) {
  return catalog.handles(ticket).get("bookings", "B-1") ?? "";
}

describe("exportWhatsapp", () => {
  const { exported, skipped } = exportWhatsapp(catalog, { samples });

  it("writes every template and locale in Meta's and Twilio's documented shapes", () => {
    expect(exported.map((entry) => entry.key)).toEqual([
      "room_ready:en",
      "room_ready:pt-BR",
      "check_in",
      "spa_offer",
    ]);
    for (const entry of exported) {
      expect(metaTemplate.safeParse(entry.meta).error).toBeUndefined();
      if (entry.twilio !== undefined) expect(twilioContent.safeParse(entry.twilio).error).toBeUndefined();
    }
    expect(exported.find((entry) => entry.key === "room_ready:pt-BR")?.meta.language).toBe("pt_BR");
  });

  it("numbers variables in order of appearance with the values a sample ticket's message shows", () => {
    const portuguese = exported.find((entry) => entry.key === "room_ready:pt-BR");
    expect(portuguese?.meta.components).toEqual([
      {
        type: "BODY",
        text: "Sua reserva {{1}} está pronta, seu quarto é {{2}}. Responda SAIR para cancelar.",
        example: { body_text: [["4711-0815", "Zimmer 12, Nordflügel"]] },
      },
    ]);
    expect(portuguese?.variables).toEqual(["booking.code", "booking.room"]);
    expect(portuguese?.samples).toBe("sample ticket");
  });

  it("writes a subject as Meta's text header, and no twilio/text, which has no header", () => {
    const checkIn = exported.find((entry) => entry.key === "check_in");
    expect(checkIn?.meta.components[0]).toEqual({
      type: "HEADER",
      format: "TEXT",
      text: "Booking {{1}}",
      example: { header_text: ["4711-0815"] },
    });
    expect(checkIn?.twilio).toBeUndefined();
  });

  it("derives UTILITY for a message about the ticket's own records and MARKETING for a promotion", () => {
    const category = (key: string) => exported.find((entry) => entry.key === key)?.meta.category;
    expect([category("room_ready:en"), category("spa_offer")]).toEqual(["UTILITY", "MARKETING"]);
  });

  it("lists a template whose text changes with a section instead of exporting a text never sent", () => {
    expect(skipped).toEqual([
      { template: "late_note", locale: "en", reason: expect.stringMatching(/section/) },
    ]);
  });

  it("never takes an example from a message its approved text reads two ways", () => {
    // The booking code holds the fixed text between the two variables: the values could be split twice.
    const ticket = hotelTicket();
    const hostile = { ...ticket, bookings: [{ id: "B-1", code: "A is ready, your room is B", room: "C" }] };
    const booking = bookingHandle(hostile);
    expect(catalog.decide({ template: "room_ready", slots: { booking } }, hostile).outcome).toBe("send");
    const entry = exportWhatsapp(catalog, { samples: [hostile] }).exported[0];
    expect(entry?.samples).toBe("tag names");
  });

  it("falls back to the tags' names, and says so, with no sample or an invalid one", () => {
    for (const options of [{}, { samples: [{ ticketId: "T-1", guests: "not a list" }] }]) {
      const entry = exportWhatsapp(catalog, options).exported[0];
      expect(entry?.samples).toBe("tag names");
      expect(metaTemplate.safeParse(entry?.meta).error).toBeUndefined();
      expect(entry?.meta.components[0]).toMatchObject({
        example: { body_text: [["booking code", "booking room"]] },
      });
    }
  });
});

describe("formletter export whatsapp", () => {
  it("prints the Twilio transport's option, which sends the decided message with its variables read back", async () => {
    const run = await cli([
      "export",
      "whatsapp",
      "--catalog",
      fixture,
      "--twilio",
      "--records",
      samplesFile(),
    ]);
    expect(run.code).toBe(1); // late_note cannot be exported, and it says why
    expect(run.stderr).toMatch(/late_note \(en\): .*section/);
    const out = JSON.parse(run.stdout) as { transport: Record<string, { contentSid: string; body: string }> };
    expect(Object.keys(out.transport)).toEqual(["room_ready:en", "room_ready:pt-BR", "spa_offer"]);
    const contentSid = `HX${"ab".repeat(16)}`;
    const whatsapp = Object.fromEntries(
      Object.entries(out.transport).map(([key, content]) => [key, { ...content, contentSid }]),
    );
    const transport = twilioTransport({
      accountSid: `AC${"01".repeat(16)}`,
      authToken: "token",
      from: "+14155550100",
      whatsapp,
      baseUrl: `http://127.0.0.1:${loopback().port}`,
    });
    for (const locale of ["en", "pt-BR"]) {
      const ticket = hotelTicket(locale);
      const decision = expectSend(
        catalog.decide({ template: "room_ready", slots: { booking: bookingHandle(ticket) } }, ticket),
      );
      await transport.deliver(decision.message, { key: decision.key, attempt: 1 });
      const sent = Object.fromEntries(new URLSearchParams(loopback().received.at(-1)?.body ?? ""));
      const variables = JSON.parse(sent.ContentVariables ?? "{}") as Record<string, string>;
      const approved = out.transport[`room_ready:${locale}`]?.body ?? "";
      // What WhatsApp renders from the exported text and these variables is the decided message.
      expect(approved.replace(/\{\{(\d+)\}\}/g, (_, n: string) => variables[n] ?? "")).toBe(
        decision.message.text,
      );
    }
  });

  it("refuses, until a Content SID is filled in, the option it prints", async () => {
    const run = await cli(["export", "whatsapp", "--catalog", fixture, "--twilio"]);
    const out = JSON.parse(run.stdout) as { transport: Record<string, { contentSid: string; body: string }> };
    expect(() =>
      twilioTransport({
        accountSid: `AC${"01".repeat(16)}`,
        authToken: "t",
        from: "+14155550100",
        whatsapp: out.transport,
      }),
    ).toThrow(/contentSid/);
  });

  it("writes one file a template and locale under --out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formletter-wa-out-"));
    await cli([
      "export",
      "whatsapp",
      "--catalog",
      fixture,
      "--twilio",
      "--out",
      dir,
      "--records",
      samplesFile(),
    ]);
    expect(readdirSync(join(dir, "meta")).sort()).toEqual([
      "check_in.en.json",
      "room_ready.en.json",
      "room_ready.pt_BR.json",
      "spa_offer.en.json",
    ]);
    const content = JSON.parse(readFileSync(join(dir, "twilio", "room_ready.pt_BR.json"), "utf8"));
    expect(twilioContent.safeParse(content).error).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, "twilio-transport.json"), "utf8")).whatsapp).toHaveProperty(
      "spa_offer",
    );
  });

  it("names a bad --language and how to fix it", async () => {
    const run = await cli(["export", "whatsapp", "--catalog", fixture, "--language", "not a tag!"]);
    expect([run.code, run.stderr]).toEqual([
      expect.any(Number),
      expect.stringMatching(/--language .*BCP 47/),
    ]);
    expect(run.code).not.toBe(0);
  });
});
