import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { defineRecords } from "../../src/index.js";
import { align } from "../../src/mine/align.js";
import { mineHistory } from "../../src/mine/index.js";
import { tokensOf } from "../../src/mine/tokens.js";

// Short business messages about one record share its slots and a sentence around them: two templates
// that open differently and differ by a phrase besides are two templates, while one template's
// variants (greetings and closings, an optional sentence, a varying phrase, typos) are one.

/** A small deterministic generator, so a history is the same on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

/** A word with two letters swapped, as people mistype. */
function mistyped(text: string): string {
  return text.replace(/(\w)(\w)(\w{4,})/, "$2$1$3");
}

interface Written {
  readonly template: string;
  readonly line: string;
}

/** Each template's lines: how many of them landed in each candidate. */
async function groupsOf(records: RecordsDefinition, written: readonly Written[]) {
  const first: number[] = [];
  const report = await mineHistory(
    records,
    written.map((item) => item.line),
    {
      onMessage: (line, cluster) => {
        first[line - 1] = cluster;
      },
    },
  );
  const into = new Map<number, number>();
  for (const candidate of report.candidates) for (const id of candidate.clusters) into.set(id, candidate.id);
  const byTemplate = new Map<string, Map<number, number>>();
  written.forEach((item, at) => {
    const candidate = into.get(first[at] as number) ?? -1;
    const counts = byTemplate.get(item.template) ?? new Map<number, number>();
    byTemplate.set(item.template, counts);
    counts.set(candidate, (counts.get(candidate) ?? 0) + 1);
  });
  return byTemplate;
}

/** Each template's lines are in one candidate, and no two templates share one. */
function expectApart(byTemplate: ReadonlyMap<string, ReadonlyMap<number, number>>, templates: number) {
  expect(byTemplate.size).toBe(templates);
  const owners = new Map<number, string>();
  for (const [template, counts] of byTemplate) {
    expect([template, counts.size]).toEqual([template, 1]);
    const [candidate] = [...counts.keys()];
    expect(owners.get(candidate as number)).toBeUndefined();
    owners.set(candidate as number, template);
  }
}

describe("a gym's renewals and suspensions, which write the same membership and date", () => {
  const records = defineRecords({
    members: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    memberships: z.object({ id: z.string(), number: z.string(), club: z.string(), nextPayment: z.string() }),
  }) as unknown as RecordsDefinition;
  const names = ["Ada Quist", "Bo Lindqvist", "Cleo Marsh", "Dev Anand", "Ezra Holt", "Fay Moreau"];
  const clubs = ["Harbour Street", "Mill Lane", "Parkside"];
  const months = ["March", "April", "May", "June"];

  function history(count: number, seed: number): Written[] {
    const { next, pick } = random(seed);
    return Array.from({ length: count }, (_, n) => {
      const name = pick(names);
      const number = `GM-${40210 + n}`;
      const club = pick(clubs);
      const nextPayment = `${pick(months)} ${1 + (n % 27)}, 2026`;
      const template = n % 5 < 2 ? "renewed" : "suspended";
      let body =
        template === "renewed"
          ? `Your membership ${number} at ${club} has been renewed. The payment is due on ${nextPayment}.${next() < 0.5 ? " We look forward to seeing you." : ""}`
          : `Sorry, membership ${number} is suspended ${pick(["for a missed payment", "until further notice", "at your request"])}. The new payment is due on ${nextPayment}. Please talk to the front desk.`;
      if (next() < 0.08) body = mistyped(body);
      const greeting = pick([`Hi ${name.split(" ")[0]},`, `Dear ${name},`, "Hello,"]);
      const closing = pick(["Best,", "Cheers,", "Kind regards,"]);
      const text = `${greeting}\n\n${body}\n\n${closing}\n${pick(["Sam", "The Front Desk"])}`;
      return {
        template,
        line: JSON.stringify({
          ticketId: `G-${n}`,
          records: {
            members: [{ id: `m${n}`, name, email: `m${n}@mail.example` }],
            memberships: [{ id: `s${n}`, number, club, nextPayment }],
          },
          message: { to: `m${n}@mail.example`, text },
        }),
      };
    });
  }

  it("keeps the two templates apart, each in one cluster with its optional sentence and phrases", async () => {
    expectApart(await groupsOf(records, history(240, 5)), 2);
  });
});

describe("a library's notices in German, which write the same title and date", () => {
  const records = defineRecords({
    readers: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    loans: z.object({ id: z.string(), title: z.string(), branch: z.string(), until: z.string() }),
  }) as unknown as RecordsDefinition;
  const titles = ["Der Schimmelreiter", "Effi Briest", "Die Blechtrommel", "Momo", "Der Vorleser"];
  const branches = ["Altstadt", "Nordviertel", "Am Hafen"];

  function history(count: number, seed: number): Written[] {
    const { next, pick } = random(seed);
    return Array.from({ length: count }, (_, n) => {
      const name = pick(["Anna Weber", "Jonas Keller", "Lea Vogt", "Max Brandt"]);
      const title = pick(titles);
      const branch = pick(branches);
      const until = `${1 + (n % 27)}.${1 + (n % 12)}.2026`;
      const template = n % 5 < 2 ? "extended" : "overdue";
      let body =
        template === "extended"
          ? `Ihre Ausleihe ${title} aus der Zweigstelle ${branch} wurde verlängert. Die Frist endet am ${until}.${next() < 0.5 ? " Bitte bringen Sie Ihren Ausweis mit." : ""}`
          : `Achtung, Ausleihe ${title} ist ${pick(["seit einer Woche überfällig", "noch nicht zurückgegeben", "überfällig"])}. Die neue Frist endet am ${until}. Es fallen Gebühren an.`;
      if (next() < 0.08) body = mistyped(body);
      const greeting = pick([`Hallo ${name.split(" ")[0]},`, `Liebe Leserin, lieber Leser,`, "Guten Tag,"]);
      const closing = pick(["Viele Grüße", "Mit freundlichen Grüßen", "Beste Grüße"]);
      const text = `${greeting}\n\n${body}\n\n${closing}\n${pick(["Ihre Stadtbibliothek", "Das Team der Ausleihe"])}`;
      return {
        template,
        line: JSON.stringify({
          ticketId: `B-${n}`,
          records: {
            readers: [{ id: `r${n}`, name, email: `r${n}@mail.example` }],
            loans: [{ id: `l${n}`, title, branch, until }],
          },
          message: { to: `r${n}@mail.example`, text },
        }),
      };
    });
  }

  it("keeps the two templates apart, each in one cluster with its optional sentence and phrases", async () => {
    expectApart(await groupsOf(records, history(240, 9)), 2);
  });
});

describe("a salon's confirmations, whose first word varies", () => {
  const records = defineRecords({
    clients: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    bookings: z.object({ id: z.string(), code: z.string(), stylist: z.string(), startsAt: z.string() }),
  }) as unknown as RecordsDefinition;

  function history(count: number, seed: number): Written[] {
    const { next, pick } = random(seed);
    return Array.from({ length: count }, (_, n) => {
      const name = pick(["Iris Cole", "Omar Reyes", "Nina Park", "Theo Grant"]);
      const code = `SL-${7310 + n}`;
      const stylist = pick(["Mara", "Jules", "Ravi"]);
      const startsAt = `${9 + (n % 8)}:${n % 2 === 0 ? "00" : "30"}`;
      let body = `${pick(["Good", "Great", "Lovely"])} news, booking ${code} with ${stylist} is confirmed. It starts at ${startsAt}.${next() < 0.5 ? " Please arrive five minutes early." : ""}`;
      if (next() < 0.08) body = mistyped(body);
      const text = `${pick([`Hi ${name.split(" ")[0]},`, "Hello,"])}\n\n${body}\n\n${pick(["Thanks,", "See you soon,"])}\nThe Salon`;
      return {
        template: "confirmed",
        line: JSON.stringify({
          ticketId: `S-${n}`,
          records: {
            clients: [{ id: `c${n}`, name, email: `c${n}@mail.example` }],
            bookings: [{ id: `b${n}`, code, stylist, startsAt }],
          },
          message: { to: `c${n}@mail.example`, text },
        }),
      };
    });
  }

  it("keeps one template in one cluster: a word in another's place at its start is its one place", async () => {
    expectApart(await groupsOf(records, history(120, 3)), 1);
  });
});

describe("align, at the ends of two lines", () => {
  const line = (text: string) => tokensOf(text, true);

  it("gives each side's words where both open otherwise inside the sentence they share", () => {
    const found = align(
      line("your order {{order.id}} has shipped. the parcel arrives on {{order.eta}}."),
      line("sorry, order {{order.id}} is held at the depot. the parcel arrives on {{order.eta}}."),
    );
    expect(found.ends).toEqual([[["your"], ["sorry"]]]);
  });

  it("gives no end for a sentence only one side opens with, nor for lines opening alike", () => {
    const optional = align(
      line("good news. your order {{order.id}} has shipped."),
      line("thank you. your order {{order.id}} is held at the depot."),
    );
    expect(optional.ends).toEqual([]);
    const alike = align(
      line("your order {{order.id}} has shipped today."),
      line("your order {{order.id}} is held at the depot."),
    );
    expect(alike.ends).toEqual([]);
  });
});
