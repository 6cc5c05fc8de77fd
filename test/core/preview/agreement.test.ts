import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PreviewMessage } from "../../../src/core/preview/index.js";
import type { Catalog, Message, Template, TicketPreview } from "../../../src/index.js";
import { readyCatalogs } from "./tickets.js";

/** Everything a message is made of, as one string: equal strings are byte-for-byte equal messages. */
const bytes = (message: Message) => JSON.stringify(message);

/**
 * Proposals built without the preview's enumeration: any template id (or a wrong one), and for each slot
 * the model fills mostly a value of the right kind (a handle of the slot's collection, a key of its list),
 * else any handle of the ticket, any key of any list, null, left out, junk or a handle in capitals; now and
 * then a slot the template does not have.
 */
function proposals(catalog: Catalog, entries: readonly { collection: string; handle: string }[]) {
  const handles = entries.map((entry) => entry.handle);
  const keys = catalog.templates.flatMap((template) =>
    template.resolveOrder.flatMap((compiled) => [...compiled.keys.values()]),
  );
  const junk = ["__proto__", "constructor", "o-0000", "", " ", "X".repeat(129)];
  const pick = (values: readonly string[], fallback: string) =>
    values.length > 0 ? fc.constantFrom(...values) : fc.constant(fallback);
  const noise = fc.oneof(
    { weight: 3, arbitrary: pick(handles, "h-none") },
    { weight: 2, arbitrary: pick(keys, "k") },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...junk) },
    {
      weight: 1,
      arbitrary: pick(
        handles.map((handle) => ` ${handle.toUpperCase()} `),
        "x",
      ),
    },
  );
  const valueFor = (compiled: Template["resolveOrder"][number] | undefined) => {
    const slot = compiled?.slot;
    const right =
      slot?.kind === "ref"
        ? entries.filter((entry) => entry.collection === slot.collection).map((entry) => entry.handle)
        : [...(compiled?.keys.values() ?? [])];
    return fc.oneof({ weight: 3, arbitrary: pick(right, "h-none") }, { weight: 1, arbitrary: noise });
  };
  return fc
    .constantFrom(...catalog.templates.map((template) => template.id), "no_such_template", "__proto__")
    .chain((id) => {
      const template = catalog.template(id);
      const names = [...(template?.chosenSlots ?? ["order"])];
      const slot = (name: string) => template?.resolveOrder.find((compiled) => compiled.name === name);
      const extra = fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: noise },
      );
      return fc.record({
        template: fc.constant(id),
        slots: fc
          .tuple(
            fc.record(Object.fromEntries(names.map((name) => [name, valueFor(slot(name))])), {
              requiredKeys: [],
            }),
            extra,
          )
          .map(([slots, unknown]) => (unknown === undefined ? slots : { ...slots, extra: unknown })),
      });
    });
}

function indexOf(preview: TicketPreview): Map<string, PreviewMessage> {
  const byKey = new Map<string, PreviewMessage>();
  if (!preview.ok) return byKey;
  for (const template of preview.templates)
    for (const entry of template.messages) byKey.set(entry.key, entry);
  return byKey;
}

describe("catalog.preview agrees with decide()", () => {
  it.each(readyCatalogs)(
    "%s catalog: a random proposal on a random ticket is sent (or drafted) by decide() iff preview() lists that exact message",
    (_name, catalog, tickets) => {
      let compared = 0;
      fc.assert(
        fc.property(
          tickets.chain((ticket) => {
            const handles = catalog.prepare(ticket).ok ? catalog.handles(ticket).entries : [];
            return fc.tuple(fc.constant(ticket), fc.array(proposals(catalog, handles), { maxLength: 40 }));
          }),
          ([ticket, outputs]) => {
            const preview = catalog.preview(ticket, { limit: 100_000 });
            expect(preview.ok).toBe(true);
            if (!preview.ok) return;
            expect(preview.exact).toBe(true);
            const listed = indexOf(preview);
            for (const output of outputs) {
              const decision = catalog.decide(output, ticket);
              const message =
                decision.outcome === "send"
                  ? decision.message
                  : decision.reason === "approval_required"
                    ? decision.draft
                    : undefined;
              if (message === undefined) continue;
              compared += 1;
              const entry = listed.get(decision.key as string);
              expect(
                entry,
                `${JSON.stringify(output)} sends a message preview() does not list`,
              ).toBeDefined();
              expect(bytes(entry?.message as Message)).toBe(bytes(message));
              expect(entry?.outcome).toBe(decision.outcome === "send" ? "send" : "approval");
            }
            // And the other way: every listed message is exactly what decide() makes of its proposal.
            for (const entry of listed.values()) {
              const decision = catalog.decide(entry.proposal, ticket);
              const message = decision.outcome === "send" ? decision.message : decision.draft;
              expect(message && bytes(message)).toBe(bytes(entry.message));
              expect(decision.key).toBe(entry.key);
            }
            // Counts add up: every decided combination is a message's or an escalation's.
            for (const template of preview.templates) {
              const counted =
                template.messages.reduce((sum, entry) => sum + entry.combinations, 0) +
                template.escalations.reduce((sum, group) => sum + group.count, 0);
              expect(counted).toBe(template.combinations);
              expect(template.bits).toBeCloseTo(
                template.messages.length <= 1 ? 0 : Math.log2(template.messages.length),
              );
            }
          },
        ),
        { numRuns: 120, seed: 15 },
      );
      // The property compared real messages, not only escalations.
      expect(compared).toBeGreaterThan(10);
    },
  );
});
