import type { KeyObject } from "node:crypto";
import { type DeliveryEvent, providerChannels } from "../providers/events/delivery-event.js";
import type { StoreTransaction, SuppressionCause } from "../store/store.js";
import { destinationHash, destinationShown } from "./first-contact.js";

/** What recording one delivery event did. */
export interface DeliveryEventOutcome {
  /**
   * `recorded`: tied to its outbound row; `unmatched`: no outbound row has its message id as receipt
   * (recorded all the same); `replayed`: its event id was recorded before, nothing written.
   */
  readonly outcome: "recorded" | "unmatched" | "replayed";
  readonly auditId: string | undefined;
  readonly outboundId: string | undefined;
  /** True when this event suppressed its destination (a hard bounce or a complaint, first of its kind). */
  readonly suppressed: boolean;
  /**
   * The template and catalog versions of the message the event is about, from its outbound row, as the
   * `delivery_status` audit event records them: undefined when unmatched, or when the row holds none.
   */
  readonly templateVersion: string | undefined;
  readonly catalogVersion: string | undefined;
}

/** Whether the event's provider delivers on `channel` (an unknown provider delivers on none). */
function carries(event: DeliveryEvent, channel: string): boolean {
  const channels: readonly string[] | undefined = Object.hasOwn(providerChannels, event.provider)
    ? providerChannels[event.provider]
    : undefined;
  return channels?.includes(channel) === true;
}

/** The suppression a status calls for: a hard bounce or a complaint; a soft bounce never suppresses. */
export function suppressionCauseOf(event: DeliveryEvent): SuppressionCause | undefined {
  if (event.status === "complained") return "complaint";
  if (event.status === "bounced" && event.bounce === "hard") return "hard_bounce";
  return undefined;
}

/**
 * Records one verified delivery event, in one transaction: its event id once, a `delivery_status` audit
 * event tied to the outbound row whose receipt is its message id, with the row's template and catalog
 * versions (or marked unmatched), and, for a hard
 * bounce or a complaint on a matched row, the destination's suppression (its keyed hash) with a
 * `suppression` audit event. Without a contact key nothing can be suppressed: events are still recorded.
 */
export async function recordDeliveryEvent(
  tx: StoreTransaction,
  event: DeliveryEvent,
  key: KeyObject | undefined,
  now: number,
): Promise<DeliveryEventOutcome> {
  if (!(await tx.addDeliveryEvent({ id: `${event.provider}:${event.eventId}`, at: now })))
    return {
      outcome: "replayed",
      auditId: undefined,
      outboundId: undefined,
      suppressed: false,
      templateVersion: undefined,
      catalogVersion: undefined,
    };
  const found = await tx.findOutboundByReceipt(event.messageId);
  const row = found !== undefined && carries(event, found.message.channel) ? found : undefined;
  const auditId = await tx.appendAudit({
    at: now,
    type: "delivery_status",
    ticketId: row?.ticketId,
    runId: row?.runId,
    template: row?.template,
    outcome: undefined,
    reason: undefined,
    key: row?.key,
    actor: event.provider,
    data: {
      provider: event.provider,
      status: event.status,
      ...(event.bounce === undefined ? {} : { bounce: event.bounce }),
      ...(event.code === undefined ? {} : { code: event.code }),
      ...(event.at === undefined ? {} : { reportedAt: event.at }),
      eventId: event.eventId,
      messageId: event.messageId,
      matched: row !== undefined,
      ...(row === undefined ? {} : { outboundId: row.id, channel: row.message.channel }),
      // Top-level fields, as a decision's event has them: a report groups outcomes by the version sent.
      ...(row?.templateVersion === undefined ? {} : { templateVersion: row.templateVersion }),
      ...(row?.catalogVersion === undefined ? {} : { catalogVersion: row.catalogVersion }),
    },
  });
  const cause = suppressionCauseOf(event);
  let suppressed = false;
  if (row !== undefined && cause !== undefined && key !== undefined) {
    const destination = destinationHash(key, row.message);
    suppressed = await tx.addSuppression({
      destination,
      channel: row.message.channel,
      cause,
      provider: event.provider,
      at: now,
      auditId,
    });
    if (suppressed) {
      await tx.appendAudit({
        at: now,
        type: "suppression",
        ticketId: row.ticketId,
        runId: row.runId,
        template: row.template,
        outcome: undefined,
        reason: undefined,
        key: row.key,
        actor: event.provider,
        data: {
          action: "suppressed",
          destination: destinationShown(destination),
          channel: row.message.channel,
          cause,
          provider: event.provider,
          of: auditId,
        },
      });
    }
  }
  return {
    outcome: row === undefined ? "unmatched" : "recorded",
    auditId,
    outboundId: row?.id,
    suppressed,
    templateVersion: row?.templateVersion,
    catalogVersion: row?.catalogVersion,
  };
}
