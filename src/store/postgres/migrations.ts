import { outboundUpdatable, queueUpdatable } from "./rows.js";

/**
 * The Postgres schema, as numbered migrations. Each migration is SQL for one schema (a name
 * `postgresStore` validated); a schema records the versions applied to it in its `migrations` table,
 * and opening a store applies the missing ones under an advisory lock. A released migration never
 * changes: a change is a new migration.
 *
 * The tables mirror the SQLite store's. What differs, and why:
 * - One sequence, `ids`, numbers audit events, outbound rows and queue items. It counts in blocks (its
 *   increment); a store takes a block at a time, so a write needs no round trip of its own for its id.
 * - Queue items also carry `seq`, taken when the row is written: ids drawn in blocks by several
 *   instances are not in creation order, and the queue is listed oldest first.
 * - A transaction's writes are sent in batches, as JSON, to `apply`, which takes the schema's decision
 *   lock (see `decisionLock`) before it checks keys and counts and writes outbound rows and reservations.
 *   Reads are functions, one round trip each; reads of keys and queue items, and counts read for an
 *   exact answer, take the lock first.
 */
export const migrations: readonly ((schema: string) => string)[] = [
  // 1: audit log, outbound messages, human queue, idempotency reservations, per-minute send counts.
  (schema) => {
    const s = quoteIdentifier(schema);
    const lock = decisionLock(schema);
    return `
  CREATE SEQUENCE ${s}.ids INCREMENT BY 512;

  -- Keyed by (at, id), the order the log is read in; nothing looks an event up by id alone, and ids are
  -- unique by construction (drawn from the sequence), so a second index on id would only cost writes.
  CREATE TABLE ${s}.audit (
    id bigint NOT NULL,
    at bigint NOT NULL,
    type text NOT NULL,
    ticket_id text,
    run_id text,
    template text,
    outcome text,
    reason text,
    key text,
    actor text NOT NULL,
    data json NOT NULL,
    PRIMARY KEY (at, id)
  );
  CREATE INDEX audit_ticket ON ${s}.audit (ticket_id, at);

  CREATE TABLE ${s}.outbound (
    id bigint PRIMARY KEY,
    key text NOT NULL UNIQUE,
    ticket_id text NOT NULL,
    run_id text NOT NULL,
    template text NOT NULL,
    message json NOT NULL,
    status text NOT NULL,
    attempts integer NOT NULL,
    created_at bigint NOT NULL,
    lease_until bigint,
    delivered_at bigint,
    receipt_id text,
    body_sha256 text NOT NULL
  );
  CREATE INDEX outbound_pending ON ${s}.outbound (id) WHERE status = 'pending';

  CREATE TABLE ${s}.queue (
    id bigint PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    status text NOT NULL,
    reason text NOT NULL,
    ticket_id text NOT NULL,
    run_id text NOT NULL,
    template text,
    detail text NOT NULL,
    key text,
    draft json,
    note text,
    created_at bigint NOT NULL,
    claimed_by text,
    claimed_at bigint,
    closed_by text,
    closed_at bigint,
    resolution text,
    close_note text,
    audit_id text NOT NULL,
    outbound_id text
  );
  CREATE INDEX queue_status ON ${s}.queue (status, seq);

  CREATE TABLE ${s}.reservations (
    key text PRIMARY KEY,
    template text NOT NULL,
    ticket_id text NOT NULL,
    run_id text NOT NULL,
    at bigint NOT NULL,
    result json NOT NULL
  );
  CREATE INDEX reservations_ticket ON ${s}.reservations (template, ticket_id);
  CREATE INDEX reservations_run ON ${s}.reservations (run_id);

  CREATE TABLE ${s}.send_counts (
    template text NOT NULL,
    minute bigint NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (template, minute)
  );

  -- A json value as sent: as itself, or (holding an escaped NUL, which JSON functions cannot turn into
  -- text) as a JSON string of its JSON text, unwrapped here without reading what is inside.
  CREATE FUNCTION ${s}.json_value(v json) RETURNS json LANGUAGE sql IMMUTABLE AS $fn$
    SELECT CASE WHEN json_typeof(v) = 'string' THEN (v #>> '{}')::json ELSE v END
  $fn$;

  -- p_keys are idempotency keys a transaction took as new without reading them (see transactionOn):
  -- checked under the decision lock; one that was taken meanwhile fails the call, and the store runs the
  -- transaction again, reading keys for real. (enable_seqscan off: a plan made and cached while a table
  -- was nearly empty stays an index scan as it grows.)
  CREATE FUNCTION ${s}.expect_new(p_keys text[]) RETURNS void LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
  DECLARE
    taken text;
  BEGIN
    IF p_keys IS NULL THEN
      RETURN;
    END IF;
    PERFORM ${lock};
    SELECT key INTO taken FROM ${s}.reservations WHERE key = ANY (p_keys) LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'postgresStore: key % was read as new but another transaction reserved it', taken
        USING ERRCODE = '${staleReadState}';
    END IF;
  END
  $fn$;

  -- p_expected are send counts a transaction answered without reading them under the lock, each as the
  -- side of a bound it was on: (count < below) = allowed. Checked under the decision lock, before this
  -- transaction's own reservations are written; one on the other side now fails the call, and the store
  -- runs the transaction again, reading counts for real.
  CREATE FUNCTION ${s}.expect_counts(p_expected json) RETURNS void LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
  DECLARE
    bad record;
  BEGIN
    IF p_expected IS NULL THEN
      RETURN;
    END IF;
    PERFORM ${lock};
    SELECT x.kind, coalesce(x."ticketId", x."runId", x.template) AS of INTO bad
    FROM json_to_recordset(p_expected) AS x(kind text, template text, "ticketId" text, "runId" text,
      minute bigint, below bigint, allowed boolean)
    WHERE (CASE x.kind
        WHEN 'ticket' THEN
          (SELECT count(*) FROM ${s}.reservations r WHERE r.template = x.template AND r.ticket_id = x."ticketId")
        WHEN 'run' THEN (SELECT count(*) FROM ${s}.reservations r WHERE r.run_id = x."runId")
        ELSE (SELECT coalesce(sum(c.n), 0) FROM ${s}.send_counts c WHERE c.template = x.template AND c.minute >= x.minute)
      END < x.below) <> x.allowed
    LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'postgresStore: the % send count of % answered without reading it has changed sides of its limit',
        bad.kind, bad.of USING ERRCODE = '${staleReadState}';
    END IF;
  END
  $fn$;

${applyFunction(schema, "CREATE", outboundInsert(s, 1))}

  -- The reads a transaction makes. Keys and counts come with the keys to check, not the writes: the
  -- transaction adds its own unwritten reservations to the counts (see Pending), so its many small writes
  -- go out in one batch at COMMIT. Queue items and outbound rows come after all pending writes. Keys,
  -- queue items and counts read for an exact answer are read under the decision lock (p_locked); counts
  -- a transaction checks later (p_expected) are read without it. In READ COMMITTED each statement of a
  -- function takes a new snapshot: a read after the lock sees every transaction that held the lock
  -- before. (A lock and a read in one statement would not.)
  CREATE FUNCTION ${s}.find_result(p_keys text[], p_key text) RETURNS json LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
    PERFORM ${s}.expect_new(p_keys);
    RETURN (SELECT result FROM ${s}.reservations WHERE key = p_key);
  END
  $fn$;

  CREATE FUNCTION ${s}.count_sends(p_keys text[], p_locked boolean, p_template text, p_ticket_id text,
    p_run_id text, p_minute bigint, OUT ticket bigint, OUT day bigint, OUT run bigint) LANGUAGE plpgsql
    SET enable_seqscan = off AS $fn$
  BEGIN
    IF p_locked THEN
      PERFORM ${lock};
    END IF;
    PERFORM ${s}.expect_new(p_keys);
    SELECT
      (SELECT count(*) FROM ${s}.reservations WHERE template = p_template AND ticket_id = p_ticket_id),
      (SELECT coalesce(sum(n), 0) FROM ${s}.send_counts WHERE template = p_template AND minute >= p_minute),
      (SELECT count(*) FROM ${s}.reservations WHERE run_id = p_run_id)
    INTO ticket, day, run;
  END
  $fn$;

  CREATE FUNCTION ${s}.lock_queue_item(${applyParameters}, p_id bigint) RETURNS SETOF ${s}.queue LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
    PERFORM ${s}.apply(${applyArguments});
    RETURN QUERY SELECT * FROM ${s}.queue WHERE id = p_id FOR UPDATE;
  END
  $fn$;

  CREATE FUNCTION ${s}.get_outbound(${applyParameters}, p_id bigint) RETURNS SETOF ${s}.outbound LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${s}.apply(${applyArguments});
    RETURN QUERY SELECT * FROM ${s}.outbound WHERE id = p_id;
  END
  $fn$;
  `;
  },
  // 2: rows being delivered (or in doubt after a crash) are claimed as pending ones are.
  (schema) => {
    const s = quoteIdentifier(schema);
    return `
  DROP INDEX ${s}.outbound_pending;
  CREATE INDEX outbound_due ON ${s}.outbound (id) WHERE status IN ('pending', 'delivering');
  `;
  },
  // 3: value ceilings: the units reserved per ceiling group and currency ("" for numbers), per minute;
  // first contact: every destination sent to, as a keyed hash (never the address), inserted once (the
  // primary key: of two concurrent first sends, the second waits for the first and inserts nothing).
  // Spend is read and written under the decision lock, in statements of their own rather than through apply:
  // a transaction that sums spend holds the lock from that read to its COMMIT, so the sum it checked is
  // the sum it adds to (an optimistic answer would have to be checked again, and ceilings are rare).
  (schema) => {
    const s = quoteIdentifier(schema);
    const lock = decisionLock(schema);
    return `
  CREATE TABLE ${s}.contacts (
    destination text PRIMARY KEY,
    template text NOT NULL,
    at bigint NOT NULL
  );

  CREATE TABLE ${s}.spend (
    group_name text NOT NULL,
    currency text NOT NULL,
    minute bigint NOT NULL,
    units bigint NOT NULL,
    PRIMARY KEY (group_name, currency, minute)
  );

  CREATE FUNCTION ${s}.sum_spend(p_group text, p_currency text, p_minute bigint) RETURNS bigint
    LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
    RETURN (SELECT coalesce(sum(units), 0) FROM ${s}.spend
      WHERE group_name = p_group AND currency = p_currency AND minute >= p_minute);
  END
  $fn$;

  CREATE FUNCTION ${s}.add_spend(p_spend json, p_minute bigint) RETURNS void LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
    INSERT INTO ${s}.spend AS t (group_name, currency, minute, units)
    SELECT "group", currency, p_minute, sum(units) FROM json_to_recordset(p_spend)
      AS r("group" text, currency text, units bigint) GROUP BY 1, 2
    ON CONFLICT (group_name, currency, minute) DO UPDATE SET units = t.units + excluded.units;
  END
  $fn$;
  `;
  },
  // 4: a reservation of a send no longer stores its message a second time: the decision in `result`
  // holds null where its message was, and `"messageIn": "outbound"` says the message is the outbound
  // row's (`outboundId`), written in the same transaction and never changed. A result is read back
  // with that message (find_decision); results written before keep their message and read as they are.
  // find_result, which returns a result as stored, is no longer called.
  (schema) => {
    const s = quoteIdentifier(schema);
    const lock = decisionLock(schema);
    return `
  CREATE FUNCTION ${s}.find_decision(p_keys text[], p_key text, OUT result json, OUT message json)
    LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
  BEGIN
    PERFORM ${lock};
    PERFORM ${s}.expect_new(p_keys);
    SELECT r.result, o.message INTO result, message
    FROM ${s}.reservations r
    LEFT JOIN ${s}.outbound o
      ON r.result->>'messageIn' = 'outbound' AND o.id = (r.result->>'outboundId')::bigint
    WHERE r.key = p_key;
  END
  $fn$;
  `;
  },
  // 5: send counts and spend per hour beside those per minute, so a count or sum from a minute on reads
  // the minutes up to the next whole hour (at most 59) and then whole hours: a day back reads at most 83
  // rows, not the 1,440 a day of steady sending leaves. Hours are counted from the epoch as minutes
  // are, rounded down (a minute before 1970 falls in the hour before it), as the other stores do (see
  // minute-series.ts).
  //
  // Triggers on the minute tables keep each hour the sum of its minutes, whoever writes them: apply and
  // add_spend stay as they were, and instances still running the previous version during a rolling
  // upgrade write through them too, a call already waiting for the decision lock as this migration
  // commits included (it runs the body it started with, and its writes fire the triggers). The triggers
  // are created before the hours are filled from the minute rows already written, under the decision
  // lock every writer takes: a write committed before the lock is in the copy, one after fires a trigger.
  // Only the readers change: they sum both.
  (schema) => {
    const s = quoteIdentifier(schema);
    const lock = decisionLock(schema);
    return `
  SELECT ${lock};

  -- Integer division truncates toward zero: a negative minute is taken 59 lower first, to round down.
  CREATE FUNCTION ${s}.hour_of(p_minute bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
    SELECT CASE WHEN p_minute >= 0 THEN p_minute / 60 ELSE (p_minute - 59) / 60 END
  $fn$;

  -- The first whole hour from a minute on: the minutes before it are summed one by one, hours from it.
  CREATE FUNCTION ${s}.first_whole_hour(p_minute bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $fn$
    SELECT ${s}.hour_of(p_minute + 59)
  $fn$;

  CREATE TABLE ${s}.send_counts_hourly (
    template text NOT NULL,
    hour bigint NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (template, hour)
  );

  CREATE TABLE ${s}.spend_hourly (
    group_name text NOT NULL,
    currency text NOT NULL,
    hour bigint NOT NULL,
    units bigint NOT NULL,
    PRIMARY KEY (group_name, currency, hour)
  );

  -- A minute row's change, added to its hour: what an INSERT wrote; what an UPDATE (ON CONFLICT DO
  -- UPDATE adds to a minute) changed, the old amount taken from the old row's hour and the new added to
  -- the new one's, one upsert when both are the same hour. A DELETE takes its amount back (nothing
  -- deletes minute rows; an operator pruning them keeps the hours their sums). One row per template and
  -- minute of a batch (per group and currency for spend), so a trigger runs once a row, not once a send.
  CREATE FUNCTION ${s}.add_send_count_to_hour() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    INSERT INTO ${s}.send_counts_hourly AS h (template, hour, n)
    SELECT template, ${s}.hour_of(minute), sum(n)
    FROM (VALUES (NEW.template, NEW.minute, NEW.n), (OLD.template, OLD.minute, -OLD.n)) AS c(template, minute, n)
    WHERE template IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (template, hour) DO UPDATE SET n = h.n + excluded.n;
    RETURN NULL;
  END
  $fn$;
  CREATE TRIGGER add_to_hour AFTER INSERT OR UPDATE OR DELETE ON ${s}.send_counts
    FOR EACH ROW EXECUTE FUNCTION ${s}.add_send_count_to_hour();

  CREATE FUNCTION ${s}.add_spend_to_hour() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    INSERT INTO ${s}.spend_hourly AS h (group_name, currency, hour, units)
    SELECT group_name, currency, ${s}.hour_of(minute), sum(units)
    FROM (VALUES (NEW.group_name, NEW.currency, NEW.minute, NEW.units),
      (OLD.group_name, OLD.currency, OLD.minute, -OLD.units)) AS c(group_name, currency, minute, units)
    WHERE group_name IS NOT NULL
    GROUP BY 1, 2, 3
    ON CONFLICT (group_name, currency, hour) DO UPDATE SET units = h.units + excluded.units;
    RETURN NULL;
  END
  $fn$;
  CREATE TRIGGER add_to_hour AFTER INSERT OR UPDATE OR DELETE ON ${s}.spend
    FOR EACH ROW EXECUTE FUNCTION ${s}.add_spend_to_hour();

  INSERT INTO ${s}.send_counts_hourly (template, hour, n)
  SELECT template, ${s}.hour_of(minute), sum(n) FROM ${s}.send_counts GROUP BY 1, 2;
  INSERT INTO ${s}.spend_hourly (group_name, currency, hour, units)
  SELECT group_name, currency, ${s}.hour_of(minute), sum(units) FROM ${s}.spend GROUP BY 1, 2, 3;

  -- The readers: the day's count and spend from minute p_minute on are the minutes up to the first whole
  -- hour one by one, then whole hours. Otherwise as migrations 1 and 3 defined them.
  CREATE OR REPLACE FUNCTION ${s}.expect_counts(p_expected json) RETURNS void LANGUAGE plpgsql
    SET enable_seqscan = off AS $fn$
  DECLARE
    bad record;
  BEGIN
    IF p_expected IS NULL THEN
      RETURN;
    END IF;
    PERFORM ${lock};
    SELECT x.kind, coalesce(x."ticketId", x."runId", x.template) AS of INTO bad
    FROM json_to_recordset(p_expected) AS x(kind text, template text, "ticketId" text, "runId" text,
      minute bigint, below bigint, allowed boolean)
    WHERE (CASE x.kind
        WHEN 'ticket' THEN
          (SELECT count(*) FROM ${s}.reservations r WHERE r.template = x.template AND r.ticket_id = x."ticketId")
        WHEN 'run' THEN (SELECT count(*) FROM ${s}.reservations r WHERE r.run_id = x."runId")
        ELSE (SELECT coalesce(sum(c.n), 0) FROM ${s}.send_counts c
            WHERE c.template = x.template AND c.minute >= x.minute AND c.minute < ${s}.first_whole_hour(x.minute) * 60)
          + (SELECT coalesce(sum(h.n), 0) FROM ${s}.send_counts_hourly h
            WHERE h.template = x.template AND h.hour >= ${s}.first_whole_hour(x.minute))
      END < x.below) <> x.allowed
    LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'postgresStore: the % send count of % answered without reading it has changed sides of its limit',
        bad.kind, bad.of USING ERRCODE = '${staleReadState}';
    END IF;
  END
  $fn$;

  CREATE OR REPLACE FUNCTION ${s}.count_sends(p_keys text[], p_locked boolean, p_template text, p_ticket_id text,
    p_run_id text, p_minute bigint, OUT ticket bigint, OUT day bigint, OUT run bigint) LANGUAGE plpgsql
    SET enable_seqscan = off AS $fn$
  BEGIN
    IF p_locked THEN
      PERFORM ${lock};
    END IF;
    PERFORM ${s}.expect_new(p_keys);
    SELECT
      (SELECT count(*) FROM ${s}.reservations WHERE template = p_template AND ticket_id = p_ticket_id),
      (SELECT coalesce(sum(n), 0) FROM ${s}.send_counts
          WHERE template = p_template AND minute >= p_minute AND minute < ${s}.first_whole_hour(p_minute) * 60)
        + (SELECT coalesce(sum(n), 0) FROM ${s}.send_counts_hourly
          WHERE template = p_template AND hour >= ${s}.first_whole_hour(p_minute)),
      (SELECT count(*) FROM ${s}.reservations WHERE run_id = p_run_id)
    INTO ticket, day, run;
  END
  $fn$;

  CREATE OR REPLACE FUNCTION ${s}.sum_spend(p_group text, p_currency text, p_minute bigint) RETURNS bigint
    LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
  BEGIN
    PERFORM ${lock};
    RETURN (SELECT coalesce(sum(units), 0) FROM ${s}.spend
        WHERE group_name = p_group AND currency = p_currency
          AND minute >= p_minute AND minute < ${s}.first_whole_hour(p_minute) * 60)
      + (SELECT coalesce(sum(units), 0) FROM ${s}.spend_hourly
        WHERE group_name = p_group AND currency = p_currency AND hour >= ${s}.first_whole_hour(p_minute));
  END
  $fn$;
  `;
  },
  // 6: delivery status coming back: outbound rows found by their transport receipt (the provider's
  // message id), each provider event id inserted once (of two deliveries of one event, the second
  // waits for the first and inserts nothing), and suppressed destinations, as the keyed hash first
  // contact uses (never the address). Written in statements of their own, outside apply: events and
  // suppressions are rare beside decisions, and need no decision lock.
  (schema) => {
    const s = quoteIdentifier(schema);
    return `
  CREATE INDEX outbound_receipt ON ${s}.outbound (receipt_id) WHERE receipt_id IS NOT NULL;

  CREATE TABLE ${s}.delivery_events (
    id text PRIMARY KEY,
    at bigint NOT NULL
  );

  CREATE TABLE ${s}.suppressions (
    destination text PRIMARY KEY,
    channel text NOT NULL,
    cause text NOT NULL,
    provider text NOT NULL,
    at bigint NOT NULL,
    audit_id text NOT NULL
  );
  `;
  },
  // 7: each outbound row records the template and catalog versions that produced its message, and `apply`
  // writes them. The columns are nullable: rows written before hold null, and so do rows an instance still
  // running version 6's code writes during a rolling upgrade (it calls this `apply`, and its JSON has no
  // versions). Every reader names its columns, so such an instance reads the table as before; one at
  // version 6 opening the schema afresh refuses it.
  (schema) => {
    const s = quoteIdentifier(schema);
    return `
  ALTER TABLE ${s}.outbound ADD COLUMN template_version text, ADD COLUMN catalog_version text;
${applyFunction(schema, "CREATE OR REPLACE", outboundInsert(s, 7))}
  `;
  },
  // 8: the indexes only looked up by equality (a ticket's audit events, a ticket's and a run's
  // reservations, for their counts) become hash indexes: a handle writes four such entries, and a hash
  // entry (the key's 4-byte hash) costs less to insert than a B-tree entry of the text, descended by text
  // comparisons; the counts' look-ups are cheaper too. A ticket has few events and reservations, so
  // reading them all and sorting (the log by time, a count by template) costs nothing. Readers are
  // unchanged: their queries use whichever index is there, during a rolling upgrade too.
  (schema) => {
    const s = quoteIdentifier(schema);
    return `
  DROP INDEX ${s}.audit_ticket;
  CREATE INDEX audit_ticket ON ${s}.audit USING hash (ticket_id);
  DROP INDEX ${s}.reservations_ticket;
  CREATE INDEX reservations_ticket ON ${s}.reservations USING hash (ticket_id);
  DROP INDEX ${s}.reservations_run;
  CREATE INDEX reservations_run ON ${s}.reservations USING hash (run_id);
  `;
  },
];

// The parameters of `apply`, and the functions of migration 1 that call it with theirs.
const applyParameters =
  "p_keys text[], p_audit json, p_outbound json, p_queue json, p_reservations json, p_updates jsonb, " +
  "p_expected json";
const applyArguments = "p_keys, p_audit, p_outbound, p_queue, p_reservations, p_updates, p_expected";

/**
 * The `apply` function (see migration 1) as `CREATE` or `CREATE OR REPLACE`, with `outbound` the statement
 * that inserts a batch's outbound rows (`outboundInsert`). Migration 1's text is exactly as released.
 */
function applyFunction(schema: string, create: "CREATE" | "CREATE OR REPLACE", outbound: string): string {
  const s = quoteIdentifier(schema);
  const lock = decisionLock(schema);
  return `  -- Writes reach the database in batches (see Pending): everything one transaction wrote since its last
  -- read that needs them, as JSON arrays of rows, applied set-wise in one call. Audit events and queue
  -- items first: their ids are this instance's own, so no other transaction waits for them. Then, under
  -- the decision lock, the checks of what was answered without reading, outbound rows (their keys are
  -- unique: inserted under the lock, two instances never wait on each other's key) and reservations.
  -- Updates last, each row once (Pending merges them): nothing read the rows in between, and an update
  -- may be of a row inserted in the same batch.
  ${create} FUNCTION ${s}.apply(${applyParameters}) RETURNS void LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
  DECLARE
    updated bigint;
    more bigint;
    missing text;
  BEGIN
    -- json columns are read as json (kept exactly as sent), through json_value (see Pending).
    IF p_audit IS NOT NULL THEN
      INSERT INTO ${s}.audit (id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, data)
      SELECT id, at, type, "ticketId", "runId", template, outcome, reason, key, actor, ${s}.json_value(data)
      FROM json_to_recordset(p_audit) AS r(id bigint, at bigint, type text, "ticketId" text, "runId" text,
        template text, outcome text, reason text, key text, actor text, data json);
    END IF;
    IF p_queue IS NOT NULL THEN
      INSERT INTO ${s}.queue (id, status, reason, ticket_id, run_id, template, detail, key, draft, note,
        created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id)
      SELECT id, status, reason, "ticketId", "runId", template, detail, key, ${s}.json_value(draft), note,
        "createdAt", "claimedBy", "claimedAt", "closedBy", "closedAt", resolution, "closeNote", "auditId",
        "outboundId"
      FROM json_to_recordset(p_queue) AS r(id bigint, status text, reason text, "ticketId" text, "runId" text,
        template text, detail text, key text, draft json, note text, "createdAt" bigint, "claimedBy" text,
        "claimedAt" bigint, "closedBy" text, "closedAt" bigint, resolution text, "closeNote" text,
        "auditId" text, "outboundId" text);
    END IF;
    -- Everything that writes reservations or outbound rows holds the decision lock: while a transaction
    -- holds it, the keys and counts it relies on cannot change but by its own writes.
    IF p_keys IS NOT NULL OR p_expected IS NOT NULL OR p_outbound IS NOT NULL OR p_reservations IS NOT NULL THEN
      PERFORM ${lock};
      PERFORM ${s}.expect_new(p_keys);
      PERFORM ${s}.expect_counts(p_expected);
    END IF;
${outbound}    IF p_reservations IS NOT NULL THEN
      WITH reserved AS (
        INSERT INTO ${s}.reservations (key, template, ticket_id, run_id, at, result)
        SELECT key, template, "ticketId", "runId", at, ${s}.json_value(result)
        FROM json_to_recordset(p_reservations) AS r(key text, template text, "ticketId" text, "runId" text,
          at bigint, result json)
        RETURNING template, at
      )
      INSERT INTO ${s}.send_counts AS counts (template, minute, n)
      SELECT template, floor(at / 60000.0)::bigint, count(*) FROM reserved GROUP BY 1, 2
      ON CONFLICT (template, minute) DO UPDATE SET n = counts.n + excluded.n;
    END IF;
    IF p_updates IS NOT NULL THEN
      -- A field the change names is set (to null when it is null); a field it leaves out is kept.
${updateRows(s, "outbound", outboundUpdatable, "updated")}
${updateRows(s, "queue", queueUpdatable, "more")}
      IF updated + more <> jsonb_array_length(p_updates) THEN
        SELECT (value->>'t') || ' row ' || (value->>'id') INTO missing FROM jsonb_array_elements(p_updates)
        WHERE NOT EXISTS (SELECT FROM ${s}.outbound o WHERE value->>'t' = 'outbound' AND o.id = (value->>'id')::bigint)
          AND NOT EXISTS (SELECT FROM ${s}.queue q WHERE value->>'t' = 'queue' AND q.id = (value->>'id')::bigint)
        LIMIT 1;
        RAISE EXCEPTION 'postgresStore: no %', missing USING ERRCODE = 'no_data_found';
      END IF;
    END IF;
  END
  $fn$;`;
}

/**
 * The statement of `apply` that inserts a batch's outbound rows: as migration 1 wrote it, or from
 * migration 7 on with the template and catalog versions (null when a row has none, as an older
 * instance's rows have).
 */
function outboundInsert(s: string, version: 1 | 7): string {
  const [columns, fields, types] =
    version === 1
      ? ["", "", ""]
      : [
          ", template_version, catalog_version",
          ', "templateVersion", "catalogVersion"',
          ', "templateVersion" text, "catalogVersion" text',
        ];
  return `    IF p_outbound IS NOT NULL THEN
      INSERT INTO ${s}.outbound (id, key, ticket_id, run_id, template, message, status, attempts, created_at,
        lease_until, delivered_at, receipt_id, body_sha256${columns})
      SELECT id, key, "ticketId", "runId", template, ${s}.json_value(message), status, attempts, "createdAt",
        "leaseUntil", "deliveredAt", "receiptId", "bodySha256"${fields}
      FROM json_to_recordset(p_outbound) AS r(id bigint, key text, "ticketId" text, "runId" text, template text,
        message json, status text, attempts integer, "createdAt" bigint, "leaseUntil" bigint,
        "deliveredAt" bigint, "receiptId" text, "bodySha256" text${types});
    END IF;
`;
}

/** Columns `apply` may update whose type is not text. */
const columnTypes: Readonly<Record<string, string>> = {
  attempts: "integer",
  created_at: "bigint",
  lease_until: "bigint",
  delivered_at: "bigint",
  claimed_at: "bigint",
  closed_at: "bigint",
  // Travels as its JSON text (see Pending.update).
  draft: "json",
};

/**
 * The statement that applies the changes of `table` in `p_updates` (by field name; see Pending.update)
 * and stores how many rows it changed in `counted`.
 */
function updateRows(
  s: string,
  table: "outbound" | "queue",
  fields: Readonly<Record<string, string>>,
  counted: string,
): string {
  const assignments = Object.entries(fields).map(([field, column]) => {
    const type = columnTypes[column];
    const value = type === undefined ? `u.c->>'${field}'` : `(u.c->>'${field}')::${type}`;
    return `${column} = CASE WHEN u.c ? '${field}' THEN ${value} ELSE t.${column} END`;
  });
  return `      WITH u AS (
        SELECT (value->>'id')::bigint AS id, value->'c' AS c FROM jsonb_array_elements(p_updates)
        WHERE value->>'t' = '${table}'
      )
      UPDATE ${s}.${table} AS t SET ${assignments.join(", ")}
      FROM u WHERE t.id = u.id;
      GET DIAGNOSTICS ${counted} = ROW_COUNT;`;
}

/**
 * The SQLSTATE of a failed check of something an optimistic transaction answered without reading it (a
 * key taken as new, a count): the store rolls back and runs the transaction again, reading for real.
 */
export const staleReadState = "FL001";

/** The schema version this build writes. */
export const schemaVersion = migrations.length;

/**
 * The schema's decision lock, as SQL: a transaction-scoped advisory lock every transaction takes before
 * it reads idempotency keys, exact send counts or a queue item, checks counts it answered without
 * reading, or writes outbound rows and reservations, and holds until it commits. Limits and idempotency
 * are exact because of it: no read-then-write race is possible while the counts and keys a transaction
 * relies on can only change by its own writes.
 *
 * Why one lock: `perDay` counts every send of a template across tickets, so two sends of one template
 * must never both check that count before either commits; and `find_result` cannot know the template
 * (the key hides it). Finer locks (per key, per template) taken in job order by group commits would
 * deadlock as soon as two instances handle the same ticket. One lock, always the first one a transaction
 * takes (queue item row locks come after it), cannot. What limits throughput is how long it is held: an
 * optimistic group commit (see transactionOn) takes it inside its only statement, after the writes that
 * need no lock, and holds it for its checks, its outbound rows and reservations, and the COMMIT — never
 * across a round trip to the instance.
 */
export function decisionLock(schema: string): string {
  return `pg_advisory_xact_lock(hashtextextended('formletter.decisions.${schema}', 0))`;
}

/** The advisory lock two instances opening one schema take before they migrate it. */
export function migrationLock(schema: string): string {
  return `pg_advisory_xact_lock(hashtextextended('formletter.migrations.${schema}', 0))`;
}

/** A schema name as SQL. Names are validated to `[a-z_][a-z0-9_]*`, so quoting only guards. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
