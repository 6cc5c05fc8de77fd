/**
 * Delivery outcomes: what the providers reported after a send (`delivery_status` audit events), counted
 * beside the escalation outcomes. Each verified event is recorded once, so each counts once.
 */
export interface DeliveryOutcomes {
  /** Events the provider reported, of messages the outbox sent. */
  readonly delivered: number;
  readonly bounced: {
    readonly hard: number;
    readonly soft: number;
    /** A bounce the provider did not say was hard or soft. */
    readonly unclassified: number;
  };
  readonly complained: number;
  readonly failed: number;
  /** Events whose message id matched no message this outbox sent: counted here only, whatever their status. */
  readonly unmatched: number;
}

/** Counts delivery events as they stream past. */
export interface DeliveryOutcomeCounter {
  /** Counts one `delivery_status` event's data; anything not of its shape is left out. */
  add(data: Readonly<Record<string, unknown>> | undefined): void;
  snapshot(): DeliveryOutcomes;
}

/** No delivery events. */
export const noDeliveryOutcomes: DeliveryOutcomes = {
  delivered: 0,
  bounced: { hard: 0, soft: 0, unclassified: 0 },
  complained: 0,
  failed: 0,
  unmatched: 0,
};

/**
 * Whether a `delivery_status` event's data is an outcome of a message sent: a known status, recorded as
 * matched to its outbound row. Only such an event can say which version's message it is about.
 */
export function isSentMessageOutcome(data: Readonly<Record<string, unknown>> | undefined): boolean {
  if (typeof data !== "object" || data === null || data.matched !== true) return false;
  const { status } = data;
  return status === "delivered" || status === "bounced" || status === "complained" || status === "failed";
}

/** Delivery outcomes counted per group (a catalog version, a `template@version`). */
export interface DeliveryOutcomeGroups {
  /** Counts one event's data under `key`; once `cap` groups exist, a new key counts under "(other)". */
  add(key: string, data: Readonly<Record<string, unknown>>): void;
  /** True once a key was counted under "(other)". */
  readonly truncated: boolean;
  snapshot(): ReadonlyMap<string, DeliveryOutcomes>;
}

export function createDeliveryOutcomeGroups(cap: number): DeliveryOutcomeGroups {
  const groups = new Map<string, DeliveryOutcomeCounter>();
  let truncated = false;
  return {
    add(key, data) {
      let counter = groups.get(key);
      if (counter === undefined) {
        if (groups.size >= cap) {
          truncated = true;
          key = "(other)";
          counter = groups.get(key);
        }
        if (counter === undefined) {
          counter = createDeliveryOutcomeCounter();
          groups.set(key, counter);
        }
      }
      counter.add(data);
    },
    get truncated() {
      return truncated;
    },
    snapshot: () => new Map([...groups].map(([key, counter]) => [key, counter.snapshot()])),
  };
}

export function createDeliveryOutcomeCounter(): DeliveryOutcomeCounter {
  let delivered = 0;
  let hard = 0;
  let soft = 0;
  let unclassified = 0;
  let complained = 0;
  let failed = 0;
  let unmatched = 0;
  return {
    add(data) {
      if (typeof data !== "object" || data === null) return;
      const { status, bounce, matched } = data;
      if (status !== "delivered" && status !== "bounced" && status !== "complained" && status !== "failed")
        return;
      // Only an event recorded as matched counts as an outcome of a message sent; an older or edited
      // event without the flag is one nobody can tie to a message.
      if (matched !== true) {
        unmatched += 1;
        return;
      }
      if (status === "delivered") delivered += 1;
      else if (status === "complained") complained += 1;
      else if (status === "failed") failed += 1;
      else if (bounce === "hard") hard += 1;
      else if (bounce === "soft") soft += 1;
      else unclassified += 1;
    },
    snapshot: () => ({
      delivered,
      bounced: { hard, soft, unclassified },
      complained,
      failed,
      unmatched,
    }),
  };
}

/** Every event counted, matched or not. */
export function deliveryEventCount(outcomes: DeliveryOutcomes): number {
  const { bounced } = outcomes;
  return (
    outcomes.delivered +
    bounced.hard +
    bounced.soft +
    bounced.unclassified +
    outcomes.complained +
    outcomes.failed +
    outcomes.unmatched
  );
}

/** "delivered 120 · bounced 3 (2 hard, 1 soft) · complained 1 · failed 0 · unmatched 2". */
export function formatDeliveryOutcomes(outcomes: DeliveryOutcomes): string {
  const { bounced } = outcomes;
  const bounces = bounced.hard + bounced.soft + bounced.unclassified;
  const kinds = [`${bounced.hard} hard`, `${bounced.soft} soft`];
  if (bounced.unclassified > 0) kinds.push(`${bounced.unclassified} unclassified`);
  return `delivered ${outcomes.delivered} · bounced ${bounces} (${kinds.join(", ")}) · complained ${outcomes.complained} · failed ${outcomes.failed} · unmatched ${outcomes.unmatched}`;
}
