import { describe, expect, it } from "vitest";
import { align } from "../../src/mine/align.js";
import { learnedAlternatives } from "../../src/mine/alternatives.js";
import type { ClusterState } from "../../src/mine/clusters.js";
import { tokensOf } from "../../src/mine/tokens.js";

const line = (text: string) => tokensOf(text, true);

/** A cluster of the given members, counted as the reading counts them (words and neighbour pairs). */
function clusterOf(id: number, texts: readonly string[]): ClusterState {
  const words = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const text of texts) {
    const tokens = tokensOf(text);
    for (const word of new Set(tokens)) words.set(word, (words.get(word) ?? 0) + 1);
    const held = new Set(tokens.slice(1).map((token, at) => `${tokens[at]} ${token}`));
    for (const pair of held) pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  return { id, size: texts.length, words, pairs } as unknown as ClusterState;
}

/** Members of one template written with either of two words, and either of two fields, at one place each. */
function payouts(count: number, offset: number, words: readonly [string, string]): string[] {
  return Array.from({ length: count }, (_, n) => {
    const verb = (n + offset) % 3 === 0 ? words[1] : words[0];
    const amount = (n + offset) % 4 === 0 ? "{{payout.amount}}" : "{{claim.amount}}";
    return `please ${verb} the payout of ${amount} for claim {{claim.number}}. policy {{policy.number}} is in good standing.`;
  });
}

describe("learnedAlternatives", () => {
  it("learns two words or two fields written at one place when two clusters show it", () => {
    const learned = learnedAlternatives(
      [
        clusterOf(1, payouts(12, 0, ["authorise", "approve"])),
        clusterOf(2, payouts(9, 1, ["authorise", "approve"])),
      ],
      3,
    );
    expect(learned.get("authorise")?.has("approve")).toBe(true);
    expect(learned.get("approve")?.has("authorise")).toBe(true);
    expect(learned.get("{{claim.amount}}")?.has("{{payout.amount}}")).toBe(true);
    // Words written in two places of every member are not one place written two ways.
    expect(learned.get("please")).toBeUndefined();
  });

  it("learns nothing from one cluster alone, nor from lines about no record", () => {
    // One cluster may hold two templates the reading could not part.
    expect(learnedAlternatives([clusterOf(1, payouts(12, 0, ["authorise", "approve"]))], 3).size).toBe(0);
    const printed = (offset: number) =>
      Array.from(
        { length: 10 },
        (_, n) => `vm ${(n + offset) % 2 === 0 ? "paused" : "stopped"} on host nine`,
      );
    expect(learnedAlternatives([clusterOf(1, printed(0)), clusterOf(2, printed(1))], 3).size).toBe(0);
  });

  it("makes an alignment read two learned alternatives as one token", () => {
    const learned = learnedAlternatives(
      [
        clusterOf(1, payouts(12, 0, ["authorise", "approve"])),
        clusterOf(2, payouts(9, 1, ["authorise", "approve"])),
      ],
      3,
    );
    const a = line("please approve the payout of {{payout.amount}} for claim {{claim.number}}.");
    const b = line("please authorise the payout of {{claim.amount}} for claim {{claim.number}}.");
    expect(align(a, b).substitutions).toBe(2);
    expect(align(a, b, learned)).toMatchObject({ substitutions: 0, partial: 0 });
  });
});

describe("align, on a template's ordinary variation", () => {
  it("reads sentences written in another order in one order, though a moved clause sits beside them", () => {
    const found = align(
      line(
        "we approve the repair of the door on the van up to 900. approved on monday by the claims desk. your estimate of {{damage.estimate}} was checked by our assessor.",
      ),
      line(
        "up to 900, we approve the repair of the door on the van. your estimate of {{damage.estimate}} was checked by our assessor. approved on monday by the claims desk. please keep the parts.",
      ),
    );
    expect(found.substitutions + found.partial).toBeLessThanOrEqual(1);
    expect(found.widest).toBeLessThanOrEqual(2);
  });

  it("reads a value's tail before a sentence only one side writes as no changed sentence", () => {
    // As the merge reads lines: "<#>" a number, "§" a sentence's end.
    const tokens = (text: string) => text.split(" ");
    const found = align(
      tokens("flight {{flight.number}} is late § the new departure is <#>"),
      tokens(
        "flight {{flight.number}} is delayed § the new departure is {{flight.departsAt}} <#> § check the screens for your gate",
      ),
    );
    expect(found).toMatchObject({ substitutions: 1, partial: 0, insertions: 1 });
  });

  it("reads a clause moved around a value masking did not take in one of them as moved", () => {
    const found = align(
      line(
        "since 12 our tenant {{tenant.name}} at {{flat.address}} has reported a {{repair.issue}}. could you arrange a visit?",
      ),
      line(
        "our tenant {{tenant.name}} at {{flat.address}} reports a {{repair.issue}}, first noticed on {{repair.reportedAt}}. could you arrange a visit?",
      ),
    );
    expect(found).toMatchObject({ substitutions: 1, partial: 0 });
    // A line that writes the slot elsewhere has not moved it: the clauses are two places.
    const elsewhere = align(
      line(
        "since 12 our tenant {{tenant.name}} at {{flat.address}} has reported a {{repair.issue}} on {{repair.reportedAt}}.",
      ),
      line(
        "our tenant {{tenant.name}} at {{flat.address}} reports a {{repair.issue}}, first noticed on {{repair.reportedAt}}.",
      ),
    );
    expect(elsewhere.partial + elsewhere.substitutions).toBeGreaterThan(1);
  });

  it("tells a greeting one line opens with, and no more than a few words", () => {
    const greeted = align(
      line(
        "dear policy holder we transfer on {{payout.paidOn}} {{claim.amount}} for the claim {{claim.number}}.",
      ),
      line("we pay on {{payout.paidOn}} {{claim.amount}} for the claim {{claim.number}}."),
    );
    expect(greeted).toMatchObject({ leading: 3, partial: 1, substitutions: 1 });
    const clause = align(
      line(
        "as the assessor has now seen the car we transfer on {{payout.paidOn}} {{claim.amount}} for the claim.",
      ),
      line("we pay on {{payout.paidOn}} {{claim.amount}} for the claim."),
    );
    expect(clause.leading).toBe(0);
  });
});
