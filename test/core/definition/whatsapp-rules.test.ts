import { describe, expect, it } from "vitest";
import { defineTemplate, format } from "../../../src/index.js";
import { records } from "../../fixtures/clinic.js";
import { thrown } from "../../fixtures/expect.js";
import { config } from "../../fixtures/visit-note-config.js";

const { slot } = records;
const phoneTo = slot.ref("patients", { show: "phone", as: format.phone({ defaultCountry: "DE" }) });

function whatsapp(body: string, subject?: string) {
  return () =>
    defineTemplate(
      records,
      config({
        channel: "whatsapp",
        to: phoneTo,
        subject,
        body,
        slots: {
          room: slot.ref("appointments", { show: "room" }),
          doctor: slot.ref("clinicians", { show: "name" }),
        },
      }),
    );
}

describe("the WhatsApp review rules hold at definition", () => {
  it.each([
    [
      "a variable at the very start",
      "{{room}} is your room, {{doctor}} will see you there today.",
      [/start/i],
    ],
    [
      "a variable at the very end, after emoji",
      "Your room 🙂 with {{doctor}} seeing you 🩺 is {{room}}",
      [/end/i],
    ],
    [
      "two variables side by side",
      "Your visit with {{doctor}} {{room}} is booked for today, see you.",
      [/next to each other/i],
    ],
    [
      "a body over 1,024 characters",
      `Your room {{room}} with {{doctor}} ${"x".repeat(1025)} today.`,
      [/1024/],
    ],
    [
      "too many variables for its fixed text",
      "Room {{room}}, doctor {{doctor}}.",
      [/2 variables and 2 words/, /at least 5 words/],
    ],
    ["fixed text that is only emoji and punctuation", "🎉🎉 {{room}} 🎉 — {{doctor}} 🎉!", [/0 words/]],
    [
      "right-to-left text too short for its variables",
      "غرفة {{room}} طبيب {{doctor}} اليوم",
      [/at least 5 words/],
    ],
  ])("refuses %s", (_name, body, says) => {
    const error = thrown(whatsapp(body));
    for (const pattern of says) expect(error.message).toMatch(pattern);
  });

  it("counts words in scripts written without spaces and in right-to-left text", () => {
    expect(whatsapp("您的房间是{{room}}，医生{{doctor}}今天会在那里见您。")).not.toThrow();
    expect(whatsapp("موعدك في الغرفة {{room}} مع الطبيب {{doctor}} اليوم، نراك قريبا.")).not.toThrow();
  });

  it("accepts a body of exactly 1,024 characters of fixed text and enough words for its variables", () => {
    const start = "Your room {{room}} is ready, {{doctor}} will see you. ";
    const fixed = start.replace(/\{\{\w+\}\}/g, "").length;
    const body = `${start}${"a".repeat(1024 - fixed - 1)}.`;
    expect(body.replace(/\{\{\w+\}\}/g, "").length).toBe(1024);
    expect(whatsapp(body)).not.toThrow();
    expect(whatsapp("Your room is {{room}}, and {{doctor}} sees you.")).not.toThrow();
  });

  it("counts each use of a variable: the same slot twice is two variables to approve", () => {
    const error = thrown(whatsapp("See {{doctor}} in room {{room}}, then {{room}} again."));
    expect(error.message).toMatch(/3 variables/);
  });

  it("refuses more variables than a template may hold, however much fixed text surrounds them", () => {
    const uses = Array.from({ length: 101 }, (_, index) => `a b {{${index % 2 === 0 ? "room" : "doctor"}}}`);
    const body = `Hi there ${uses.join(" ")} c d.`;
    expect(body.replace(/\{\{\w+\}\}/g, "").length).toBeLessThan(1024);
    expect(thrown(whatsapp(body)).message).toMatch(/101 variables, over the 100/);
    expect(whatsapp(`Hi there ${uses.slice(1).join(" ")} c d.`)).not.toThrow();
  });

  it.each([
    ["a tab", "late\tby an hour"],
    ["four spaces in a row", "late    by an hour"],
  ])("refuses a choice label holding %s, which would be a variable's value", (_name, label) => {
    const define = (late: string) => () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: "Your visit in room {{room}} is running {{why}} today, sorry for the wait.",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            why: slot.choice({ late, early: "early" }),
          },
        }),
      );
    const error = thrown(define(label));
    expect(error.message).toMatch(/choice "late".*four spaces in a row/);
    expect(error.slot).toBe("why");
    expect(define("late by an hour")).not.toThrow();
  });

  it("holds a locale's choice labels to the same rule", () => {
    const define = () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: "Your visit in room {{room}} is running {{why}} today, sorry for the wait.",
          slots: {
            room: slot.ref("appointments", { show: "room" }),
            why: slot.choice({ late: "late", early: "early" }),
          },
          locale: {
            default: "en",
            from: () => "de",
            texts: {
              de: {
                body: "Ihr Termin in Raum {{room}} ist heute {{why}}, entschuldigen Sie die Wartezeit bitte.",
                choices: { why: { late: "spät\tdran", early: "früh" } },
              },
            },
          },
        }),
      );
    expect(thrown(define).message).toMatch(/locale "de".*choice "late"/);
  });

  it("holds each locale's text to the same rules", () => {
    const define = () =>
      defineTemplate(
        records,
        config({
          channel: "whatsapp",
          to: phoneTo,
          subject: undefined,
          body: "Your visit is in room {{room}} today, see you.",
          locale: { default: "en", from: () => "de", texts: { de: { body: "Raum {{room}} heute." } } },
        }),
      );
    expect(thrown(define).message).toMatch(/at least 3 words/);
  });
});
