import { hash } from "node:crypto";
import type { Statement } from "./connection.js";
import { quoteIdentifier } from "./migrations.js";
import { auditColumns, outboundColumns, queueColumns, suppressionColumns } from "./rows.js";

/**
 * The statements a store runs, for one schema. The frequent ones are named, so a connection parses and
 * plans each once; names carry a hash of the schema, so stores on several schemas can share one pool.
 * `$1` … `$7` of `apply`, `lock_queue_item` and `get_outbound` are a transaction's pending writes (see
 * Pending), applied first; `$1` of `find_decision` and `count_sends` the keys it took as new, `$2` of
 * `count_sends` whether to read under the decision lock.
 */
export function statementsFor(schema: string) {
  const s = quoteIdentifier(schema);
  const prefix = `fl_${hash("sha256", schema, "hex").slice(0, 10)}_`;
  const statement = (name: string, text: string): Statement => ({ name: prefix + name, text });
  const writes = "$1::text[], $2::json, $3::json, $4::json, $5::json, $6::jsonb, $7::json";
  const claimWhere = "status IN ('pending', 'delivering') AND (lease_until IS NULL OR lease_until <= $1)";
  return {
    // The block size is the sequence's increment, read with each draw: a later migration may change it.
    nextIds: statement(
      "next_ids",
      `SELECT nextval('${s}.ids')::text AS first, seqincrement::text AS size
       FROM pg_sequence WHERE seqrelid = '${s}.ids'::regclass`,
    ),
    apply: statement("apply", `SELECT ${s}.apply(${writes})`),
    findResult: statement("find_decision", `SELECT result, message FROM ${s}.find_decision($1::text[], $2)`),
    countSends: statement(
      "count_sends",
      `SELECT ticket, day, run FROM ${s}.count_sends($1::text[], $2, $3, $4, $5, $6)`,
    ),
    sumSpend: statement("sum_spend", `SELECT ${s}.sum_spend($1, $2, $3)::text AS units`),
    addSpend: statement("add_spend", `SELECT ${s}.add_spend($1::json, $2)`),
    addContact: statement(
      "add_contact",
      `INSERT INTO ${s}.contacts (destination, template, at) VALUES ($1, $2, $3)
       ON CONFLICT (destination) DO NOTHING RETURNING 1 AS added`,
    ),
    hasContact: statement("has_contact", `SELECT 1 AS found FROM ${s}.contacts WHERE destination = $1`),
    addDeliveryEvent: statement(
      "add_delivery_event",
      `INSERT INTO ${s}.delivery_events (id, at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING 1 AS added`,
    ),
    findOutboundByReceipt: statement(
      "find_outbound_by_receipt",
      `SELECT ${outboundColumns} FROM ${s}.outbound WHERE receipt_id = $1 ORDER BY id DESC LIMIT 1`,
    ),
    addSuppression: statement(
      "add_suppression",
      `INSERT INTO ${s}.suppressions (destination, channel, cause, provider, at, audit_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (destination) DO NOTHING RETURNING 1 AS added`,
    ),
    getSuppression: statement(
      "get_suppression",
      `SELECT ${suppressionColumns} FROM ${s}.suppressions WHERE destination = $1`,
    ),
    removeSuppression: statement(
      "remove_suppression",
      `DELETE FROM ${s}.suppressions WHERE destination = $1 RETURNING ${suppressionColumns}`,
    ),
    suppressionPage: statement(
      "suppression_page",
      `SELECT ${suppressionColumns} FROM ${s}.suppressions WHERE destination > $1 ORDER BY destination LIMIT $2`,
    ),
    lockQueueItem: statement(
      "lock_queue_item",
      `SELECT ${queueColumns} FROM ${s}.lock_queue_item(${writes}, $8)`,
    ),
    getOutboundAfter: statement(
      "get_outbound_after",
      `SELECT ${outboundColumns} FROM ${s}.get_outbound(${writes}, $8)`,
    ),
    getOutbound: statement("get_outbound", `SELECT ${outboundColumns} FROM ${s}.outbound WHERE id = $1`),
    getQueueItem: statement("get_queue_item", `SELECT ${queueColumns} FROM ${s}.queue WHERE id = $1`),
    claimDue: statement(
      "claim_due",
      // SKIP LOCKED: a row another deliverer is claiming right now is passed over, not waited for; the
      // lease written here keeps it from everyone else once this statement commits.
      `WITH due AS (
         SELECT id, status AS found FROM ${s}.outbound WHERE ${claimWhere} ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED
       )
       UPDATE ${s}.outbound AS o SET status = 'delivering', lease_until = $2 FROM due WHERE o.id = due.id
       RETURNING ${prefixed("o", outboundColumns)}, due.found`,
    ),
    claimOne: statement(
      "claim_one",
      `WITH due AS (
         SELECT id, status AS found FROM ${s}.outbound WHERE ${claimWhere} AND id = $3 FOR UPDATE SKIP LOCKED
       )
       UPDATE ${s}.outbound AS o SET status = 'delivering', lease_until = $2 FROM due WHERE o.id = due.id
       RETURNING ${prefixed("o", outboundColumns)}, due.found`,
    ),
    auditPage: (where: string) => `SELECT ${auditColumns} FROM ${s}.audit ${where} ORDER BY at, id LIMIT 500`,
    queuePage: (where: string) =>
      `SELECT ${queueColumns} FROM ${s}.queue WHERE ${where} ORDER BY seq LIMIT $1`,
  };
}

function prefixed(table: string, columns: string): string {
  return columns
    .split(", ")
    .map((column) => `${table}.${column}`)
    .join(", ");
}

/** The statements of one schema. */
export type Statements = ReturnType<typeof statementsFor>;
