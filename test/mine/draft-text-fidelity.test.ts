import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { createCatalog, defineRecords, defineTemplate } from "../../src/index.js";
import { configOf, type DraftChoiceSlot } from "../../src/mine/draft.js";
import {
  composeBody,
  readSkeleton,
  subjectLine,
  varyingPlaces,
  withValueTags,
} from "../../src/mine/draft-text.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";

/** A skeleton's body as drafted with no choice slot: every `{{a.b}}` kept as the slot `a`. */
function bodyOf(skeleton: string, examples: readonly string[], choiceWords: readonly string[] = []): string {
  const tag = (path: string) => {
    const [slot = "", alias = ""] = path.split(".");
    return { slot, alias };
  };
  const read = readSkeleton(skeleton, tag);
  const varying = varyingPlaces(read, examples, new Set(choiceWords));
  return composeBody(withValueTags(read, varying, tag), { dropped: new Set(), choice: undefined, varying });
}

/** What a body sends: its comments (for whoever reads the code) left out. */
const sent = (body: string) => body.replace(/\s*\{\{![^}]*\}\}/g, "");

const workshop = defineRecords({
  customers: z.object({ id: z.string(), name: z.string(), email: z.email() }),
  repairs: z.object({ id: z.string(), customerId: z.string(), ticket: z.string() }),
});

/** A bicycle workshop's history: message `n` written by `text(n)`, the customer's name and ticket masked. */
async function drafted(text: (n: number, name: string, ticket: string) => string, count = 30) {
  const lines = Array.from({ length: count }, (_, n) => {
    const name = `Rider${n}q`;
    const ticket = `RP-${4100 + n}`;
    return JSON.stringify({
      ticketId: `T-${n}`,
      records: {
        customers: [{ id: `c${n}`, name, email: `c${n}@mail.example` }],
        repairs: [{ id: `r${n}`, customerId: `c${n}`, ticket }],
      },
      message: { to: `c${n}@mail.example`, text: text(n, name, ticket) },
    });
  });
  const records = workshop as unknown as RecordsDefinition;
  const draft = draftTemplates(records, await mineHistory(records, lines));
  // Comments and all, every draft is one defineTemplate takes and the catalog builds.
  createCatalog(
    records,
    draft.templates.map((template) => defineTemplate(records, configOf(records, template))),
  );
  const [template] = draft.templates;
  const choices = template?.slots.filter((slot): slot is DraftChoiceSlot => slot.kind === "choice") ?? [];
  return { body: template?.body ?? "", choice: choices[0], choices };
}

describe("a template that varied at two places independently", () => {
  it("gets a choice at each place, keeping neither place's phrases as text", async () => {
    // "finished" / "postponed" at one place (half each: a gap in the skeleton); "adjusted" at the other in
    // two messages of three (in the skeleton), "replaced" in the rest.
    const { body, choices } = await drafted(
      (n, name, ticket) =>
        `Hello ${name},\n\nrepair ${ticket} is ${n % 2 === 0 ? "finished" : "postponed"} and the brakes were ${
          n % 3 === 2 ? "replaced" : "adjusted"
        } by our mechanic. You can pick the bike up at the front desk.\n\nKind regards,\nThe workshop`,
    );
    expect(body).toContain("is {{choice}} and the brakes were {{choice_2}} by our");
    expect(choices.map((choice) => Object.values(choice.choices).sort())).toEqual([
      ["finished", "postponed"],
      ["adjusted", "replaced"],
    ]);
    // Neither place's words are the template's text, and none of the words around them is lost.
    expect(sent(body)).not.toMatch(/adjusted|replaced|finished|postponed/);
    expect(sent(body)).toBe(
      "Hello {{customer.name}}, repair {{repair.ticket}} is {{choice}} and the brakes were {{choice_2}} by our mechanic. You can pick the bike up at the front desk.",
    );
  });
});

describe("a greeting the members wrote differently", () => {
  it("is no text of the draft, even where a word of it recurs in the message", async () => {
    const greetings = ["Good evening,", "Hi {name},", "Hello {name}:", "Dear {name},"];
    const { body } = await drafted(
      (n, name, ticket) =>
        `${(greetings[n % greetings.length] as string).replace("{name}", name)}\n\nYour bike from repair ${ticket} ` +
        `is ready. The evening desk is open until nine this evening.\n\nKind regards,\nThe workshop`,
    );
    expect(body).toBe(
      "Your bike from repair {{repair.ticket}} is ready. The evening desk is open until nine this evening.",
    );
  });

  it("is left out of a skeleton that kept its first word, while a fixed opening line and a greeting naming the recipient stay", () => {
    const examples = [
      "Buongiorno Anna, La sua tessera {{card.code}} è stata rinnovata.",
      "Gentile cliente, La sua tessera {{card.code}} è stata rinnovata.",
      "Buongiorno, La sua tessera {{card.code}} è stata rinnovata.",
      "Salve Marco, La sua tessera {{card.code}} è stata rinnovata.",
    ];
    expect(bodyOf("Buongiorno …, La sua tessera {{card.code}} è stata rinnovata.", examples)).toBe(
      "La sua tessera {{card.code}} è stata rinnovata.",
    );
    const signed = examples.map((example) => example.replace(/^[^,]*,/, "Palestra Tevere:"));
    expect(bodyOf("Palestra Tevere: La sua tessera {{card.code}} è stata rinnovata.", signed)).toBe(
      "Palestra Tevere: La sua tessera {{card.code}} è stata rinnovata.",
    );
    const named = examples.map((example) => example.replace(/^\S+ [^,]*,/, "Ciao {{member.name}},"));
    expect(bodyOf("Ciao {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.", named)).toBe(
      "Ciao {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.",
    );
  });

  it("takes the recipient's name with it where the members opened it with different words", () => {
    const examples = [
      "Buongiorno {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.",
      "Gentile {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.",
      "Salve {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.",
      "Ciao {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.",
    ];
    expect(bodyOf("… {{member.name}}, La sua tessera {{card.code}} è stata rinnovata.", examples)).toBe(
      "La sua tessera {{card.code}} è stata rinnovata.",
    );
  });
});

describe("words every example wrote at a gap", () => {
  it("keeps a number of the template's own with the marks written around it", () => {
    const examples = Array.from(
      { length: 4 },
      () => "Your book {{loan.title}} is ready. Desk hours: 9h-17h.",
    );
    expect(bodyOf("Your book {{loan.title}} is ready. Desk hours: ….", examples)).toBe(
      "Your book {{loan.title}} is ready. Desk hours: 9h-17h.",
    );
  });

  it("are said in a comment where the cluster's members did not share them, never dropped unsaid", () => {
    const examples = Array.from(
      { length: 4 },
      () => "Your quote for {{job.kind}} is attached. The quote stays valid for 45 days.",
    );
    const body = bodyOf("Your quote for {{job.kind}} is attached. The quote … days.", examples);
    expect(body).toBe(
      "Your quote for {{job.kind}} is attached. The quote {{! Varies here; the examples wrote: stays valid for 45 }} days.",
    );
  });
});

describe("a place where the examples wrote free text", () => {
  it("keeps the words around it and says that it varies", () => {
    const examples = [
      "We will forward it to the night porter today.",
      "We will forward it to the kitchen staff today.",
      "We will forward it to the spa manager today.",
    ];
    expect(bodyOf("We will forward it to the … today.", examples)).toBe(
      "We will forward it to the {{! Varies here }} today.",
    );
  });
});

describe("the words after a greeting, in the gap the greeting opened", () => {
  it("are said in a comment where every example wrote them and the members did not share them", () => {
    const examples = [
      "Hi Ana, Sadly lesson {{lesson.code}} is cancelled. We will call you.",
      "Good morning, Sadly lesson {{lesson.code}} is cancelled. We will call you.",
      "Dear Bo, Sadly lesson {{lesson.code}} is cancelled. We will call you.",
    ];
    const body = bodyOf("… lesson {{lesson.code}} is cancelled. We will call you.", examples);
    expect(body).toBe(
      "{{! Varies here; the examples wrote: Sadly }} lesson {{lesson.code}} is cancelled. We will call you.",
    );
    // The subject reads the text, not the comment.
    expect(subjectLine(body)).toBe("Lesson is cancelled");
    // A greeting alone in that gap leaves nothing to say.
    const greeted = examples.map((example) => example.replace(" Sadly lesson", " Lesson"));
    expect(bodyOf("… Lesson {{lesson.code}} is cancelled. We will call you.", greeted)).toBe(
      "Lesson {{lesson.code}} is cancelled. We will call you.",
    );
  });
});
