/**
 * ✓ pass: the check holds; ✗ fail: a launch blocker (the checklist is not ok); ! warn: worth a look,
 * not a blocker (a control that is advised but not required).
 */
export type ChecklistStatus = "pass" | "fail" | "warn";

/** The checks of the checklist, by the stable name tools can filter on. */
export type ChecklistCheck =
  // Per template, read from its definition.
  | "delivery"
  | "recipient"
  | "recipient_choice"
  | "fields"
  | "effect"
  | "limits"
  | "capacity"
  | "locales"
  | "ceiling"
  | "first_contact"
  // Run live on the sample ticket.
  | "sample"
  | "sends"
  | "hostile_outputs"
  | "injection"
  | "properties";

/** One line of the checklist: what was checked, whether it holds, and the evidence. */
export interface ChecklistItem {
  /** "template": read from one template's definition; "controls": its run-time controls; "live": run on the sample. */
  readonly section: "template" | "controls" | "live";
  /** The template the item is about; undefined for live checks of the whole catalog. */
  readonly template: string | undefined;
  readonly check: ChecklistCheck;
  readonly status: ChecklistStatus;
  /** One line: what holds, or what is wrong. */
  readonly summary: string;
  /** The facts behind the status: fields and labels, counts, the first failing case. */
  readonly evidence: readonly string[];
}

/** The checklist: every item, and whether none failed. */
export interface Checklist {
  readonly items: readonly ChecklistItem[];
  /** True when no item is ✗: what a CI gate reads. */
  readonly ok: boolean;
}

/** Options of {@link buildChecklist}; each threshold says why it is where it is. */
export interface ChecklistOptions {
  /**
   * A sample ticket's records, as your loader returns them (what `formletter preview --records` takes).
   * Without it, the live checks fail with "no sample ticket".
   */
  readonly sample?: unknown;
  /**
   * Most messages a day a template may allow before its limit looks like none. At 10,000 a day one
   * template sends a message every 9 seconds around the clock: a steered run no longer stands out by its
   * volume, and the limit bounds nothing a person would notice.
   * @default 10000
   */
  readonly maxPerDay?: number;
  /**
   * Most messages one ticket may get from a template. Above 10, a template is a conversation rather than
   * a notice, and a steered model gets that many tries on one recipient.
   * @default 10
   */
  readonly maxPerTicket?: number;
  /**
   * Most bits one message may encode (log2 of the template and record choices). 20 bits is about one
   * choice among a million: more than any legitimate choice of template, records and keys needs on one
   * ticket, and 3 bytes a steered model could carry out per message.
   * @default 20
   */
  readonly maxBitsPerMessage?: number;
  /** Decisions `checkCatalog` tries on the sample. @default 500 */
  readonly propertyRuns?: number;
  /** Seed of `checkCatalog`'s choices, so a failure can be replayed. @default 1 */
  readonly seed?: number;
  /** Sending proposals per template replayed on each injected ticket. @default 6 */
  readonly injectionProposals?: number;
}
