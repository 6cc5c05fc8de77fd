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
 * - A transaction's writes are sent in batches, as JSON, to `apply`. Reads are functions, one round
 *   trip each; reads of keys, counts and queue items first take the schema's decision lock (see
 *   `decisionLock`).
 */
export const migrations: readonly ((schema: string) => string)[] = [
  // 1: audit log, outbound messages, human queue, idempotency reservations, per-minute send counts.
  (schema) => {
    const s = quoteIdentifier(schema);
    const lock = decisionLock(schema);
    const applyParameters =
      "p_keys text[], p_audit json, p_outbound json, p_queue json, p_reservations json, p_updates jsonb, " +
      "p_ticket_counts json, p_run_counts json";
    const applyArguments =
      "p_keys, p_audit, p_outbound, p_queue, p_reservations, p_updates, p_ticket_counts, p_run_counts";
    return `
  CREATE SEQUENCE ${s}.ids INCREMENT BY 512;

  CREATE TABLE ${s}.audit (
    id bigint PRIMARY KEY,
    at bigint NOT NULL,
    type text NOT NULL,
    ticket_id text,
    run_id text,
    template text,
    outcome text,
    reason text,
    key text,
    actor text NOT NULL,
    data json NOT NULL
  );
  CREATE INDEX audit_at ON ${s}.audit (at, id);
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
  -- transaction again, reading keys for real.
  CREATE FUNCTION ${s}.expect_new(p_keys text[]) RETURNS void LANGUAGE plpgsql AS $fn$
  DECLARE
    k text;
  BEGIN
    IF p_keys IS NULL THEN
      RETURN;
    END IF;
    PERFORM ${lock};
    -- One equality look-up a key: planned as an index scan whatever the table's statistics say
    -- (= ANY over a new, empty table can be planned, and cached, as a sequential scan).
    FOREACH k IN ARRAY p_keys LOOP
      PERFORM FROM ${s}.reservations WHERE key = k;
      IF FOUND THEN
        RAISE EXCEPTION 'postgresStore: key % was read as new but another transaction reserved it', k
          USING ERRCODE = '${staleReadState}';
      END IF;
    END LOOP;
  END
  $fn$;

  -- Writes reach the database in batches (see Pending): everything one transaction wrote since its last
  -- read that needs them, as JSON arrays of rows, applied set-wise in one call. Keys first; then inserts;
  -- then updates in the order they were made: nothing read the rows in between, and an update may be of
  -- a row inserted in the same batch.
  CREATE FUNCTION ${s}.apply(${applyParameters}) RETURNS void LANGUAGE plpgsql AS $fn$
  DECLARE
    e record;
    u jsonb;
    c jsonb;
  BEGIN
    -- Everything that writes reservations holds the decision lock: while a transaction holds it, the
    -- counts it reads cannot change but by its own writes (what its unread answers rely on).
    IF p_reservations IS NOT NULL OR p_ticket_counts IS NOT NULL OR p_run_counts IS NOT NULL THEN
      PERFORM ${lock};
    END IF;
    PERFORM ${s}.expect_new(p_keys);
    -- Counts the transaction answered without reading them, checked before its own writes (a loop of
    -- equality look-ups, planned as index scans whatever the statistics of a new table say).
    FOR e IN SELECT * FROM json_to_recordset(p_ticket_counts) AS x(template text, ticket_id text, n bigint) LOOP
      IF (SELECT count(*) FROM ${s}.reservations WHERE template = e.template AND ticket_id = e.ticket_id) <> e.n THEN
        RAISE EXCEPTION 'postgresStore: the count of % sends on ticket % answered without reading it was wrong',
          e.template, e.ticket_id USING ERRCODE = '${staleReadState}';
      END IF;
    END LOOP;
    FOR e IN SELECT * FROM json_to_recordset(p_run_counts) AS x(run_id text, n bigint) LOOP
      IF (SELECT count(*) FROM ${s}.reservations WHERE run_id = e.run_id) <> e.n THEN
        RAISE EXCEPTION 'postgresStore: the count of sends in run % answered without reading it was wrong',
          e.run_id USING ERRCODE = '${staleReadState}';
      END IF;
    END LOOP;
    -- json columns are read as json (kept exactly as sent), through json_value (see Pending).
    IF p_audit IS NOT NULL THEN
      INSERT INTO ${s}.audit (id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, data)
      SELECT id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, ${s}.json_value(data)
      FROM json_to_recordset(p_audit) AS r(id bigint, at bigint, type text, ticket_id text, run_id text,
        template text, outcome text, reason text, key text, actor text, data json);
    END IF;
    IF p_outbound IS NOT NULL THEN
      INSERT INTO ${s}.outbound (id, key, ticket_id, run_id, template, message, status, attempts, created_at,
        lease_until, delivered_at, receipt_id, body_sha256)
      SELECT id, key, ticket_id, run_id, template, ${s}.json_value(message), status, attempts, created_at,
        lease_until, delivered_at, receipt_id, body_sha256
      FROM json_to_recordset(p_outbound) AS r(id bigint, key text, ticket_id text, run_id text, template text,
        message json, status text, attempts integer, created_at bigint, lease_until bigint,
        delivered_at bigint, receipt_id text, body_sha256 text);
    END IF;
    IF p_queue IS NOT NULL THEN
      INSERT INTO ${s}.queue (id, status, reason, ticket_id, run_id, template, detail, key, draft, note,
        created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id)
      SELECT id, status, reason, ticket_id, run_id, template, detail, key, ${s}.json_value(draft), note,
        created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id
      FROM json_to_recordset(p_queue) AS r(id bigint, status text, reason text, ticket_id text, run_id text,
        template text, detail text, key text, draft json, note text, created_at bigint, claimed_by text,
        claimed_at bigint, closed_by text, closed_at bigint, resolution text, close_note text,
        audit_id text, outbound_id text);
    END IF;
    IF p_reservations IS NOT NULL THEN
      WITH reserved AS (
        INSERT INTO ${s}.reservations (key, template, ticket_id, run_id, at, result)
        SELECT key, template, ticket_id, run_id, at, ${s}.json_value(result)
        FROM json_to_recordset(p_reservations) AS r(key text, template text, ticket_id text, run_id text,
          at bigint, result json)
        RETURNING template, at
      )
      INSERT INTO ${s}.send_counts AS counts (template, minute, n)
      SELECT template, floor(at / 60000.0)::bigint, count(*) FROM reserved GROUP BY 1, 2
      ON CONFLICT (template, minute) DO UPDATE SET n = counts.n + excluded.n;
    END IF;
    IF p_updates IS NOT NULL THEN
      FOR u IN SELECT value FROM jsonb_array_elements(p_updates) LOOP
        c := u->'c';
        IF u->>'t' = 'outbound' THEN
          UPDATE ${s}.outbound SET
            ticket_id = CASE WHEN c ? 'ticket_id' THEN c->>'ticket_id' ELSE ticket_id END,
            run_id = CASE WHEN c ? 'run_id' THEN c->>'run_id' ELSE run_id END,
            template = CASE WHEN c ? 'template' THEN c->>'template' ELSE template END,
            status = CASE WHEN c ? 'status' THEN c->>'status' ELSE status END,
            attempts = CASE WHEN c ? 'attempts' THEN (c->>'attempts')::integer ELSE attempts END,
            created_at = CASE WHEN c ? 'created_at' THEN (c->>'created_at')::bigint ELSE created_at END,
            lease_until = CASE WHEN c ? 'lease_until' THEN (c->>'lease_until')::bigint ELSE lease_until END,
            delivered_at = CASE WHEN c ? 'delivered_at' THEN (c->>'delivered_at')::bigint ELSE delivered_at END,
            receipt_id = CASE WHEN c ? 'receipt_id' THEN c->>'receipt_id' ELSE receipt_id END,
            body_sha256 = CASE WHEN c ? 'body_sha256' THEN c->>'body_sha256' ELSE body_sha256 END
          WHERE id = (u->>'id')::bigint;
        ELSE
          UPDATE ${s}.queue SET
            status = CASE WHEN c ? 'status' THEN c->>'status' ELSE status END,
            reason = CASE WHEN c ? 'reason' THEN c->>'reason' ELSE reason END,
            ticket_id = CASE WHEN c ? 'ticket_id' THEN c->>'ticket_id' ELSE ticket_id END,
            run_id = CASE WHEN c ? 'run_id' THEN c->>'run_id' ELSE run_id END,
            template = CASE WHEN c ? 'template' THEN c->>'template' ELSE template END,
            detail = CASE WHEN c ? 'detail' THEN c->>'detail' ELSE detail END,
            key = CASE WHEN c ? 'key' THEN c->>'key' ELSE key END,
            draft = CASE WHEN c ? 'draft' THEN (c->>'draft')::json ELSE draft END,
            note = CASE WHEN c ? 'note' THEN c->>'note' ELSE note END,
            created_at = CASE WHEN c ? 'created_at' THEN (c->>'created_at')::bigint ELSE created_at END,
            claimed_by = CASE WHEN c ? 'claimed_by' THEN c->>'claimed_by' ELSE claimed_by END,
            claimed_at = CASE WHEN c ? 'claimed_at' THEN (c->>'claimed_at')::bigint ELSE claimed_at END,
            closed_by = CASE WHEN c ? 'closed_by' THEN c->>'closed_by' ELSE closed_by END,
            closed_at = CASE WHEN c ? 'closed_at' THEN (c->>'closed_at')::bigint ELSE closed_at END,
            resolution = CASE WHEN c ? 'resolution' THEN c->>'resolution' ELSE resolution END,
            close_note = CASE WHEN c ? 'close_note' THEN c->>'close_note' ELSE close_note END,
            audit_id = CASE WHEN c ? 'audit_id' THEN c->>'audit_id' ELSE audit_id END,
            outbound_id = CASE WHEN c ? 'outbound_id' THEN c->>'outbound_id' ELSE outbound_id END
          WHERE id = (u->>'id')::bigint;
        END IF;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'postgresStore: no % row %', u->>'t', u->>'id' USING ERRCODE = 'no_data_found';
        END IF;
      END LOOP;
    END IF;
  END
  $fn$;

  -- The reads a transaction makes. Keys and counts come with the keys to check, not the writes: the
  -- transaction adds its own unwritten reservations to the counts (see Pending), so its many small writes
  -- go out in one batch at COMMIT. Queue items and outbound rows come after all pending writes. All but
  -- outbound rows are read under the decision lock. In READ COMMITTED each statement of a function takes
  -- a new snapshot: a read after the lock sees every transaction that held the lock before. (A lock and a
  -- read in one statement would not.)
  CREATE FUNCTION ${s}.find_result(p_keys text[], p_key text) RETURNS json LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
    PERFORM ${s}.expect_new(p_keys);
    RETURN (SELECT result FROM ${s}.reservations WHERE key = p_key);
  END
  $fn$;

  CREATE FUNCTION ${s}.count_sends(p_keys text[], p_template text, p_ticket_id text, p_run_id text,
    p_minute bigint, OUT ticket bigint, OUT day bigint, OUT run bigint) LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM ${lock};
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
];

/**
 * The SQLSTATE of a failed check of something an optimistic transaction answered without reading it (a
 * key taken as new, a count): the store rolls back and runs the transaction again, reading for real.
 */
export const staleReadState = "FL001";

/** The schema version this build writes. */
export const schemaVersion = migrations.length;

/**
 * The schema's decision lock, as SQL: a transaction-scoped advisory lock every transaction takes before
 * it reads idempotency keys, send counts or a queue item, or writes reservations, and holds until it
 * commits. Limits and idempotency are exact because of it: no read-then-write race is possible while
 * the counts and keys a transaction relies on can only change by its own writes.
 *
 * Why one lock: `perDay` counts every send of a template across tickets, so two sends of one template
 * must never both check that count before either commits; and `find_result` cannot know the template
 * (the key hides it). Finer locks (per key, per template) taken in job order by group commits would
 * deadlock as soon as two instances handle the same ticket. One lock, always the first one a transaction
 * takes (queue item row locks come after it), cannot. What limits throughput is how long it is held: a
 * group commit holds it for one round trip and its COMMIT (see transactionOn), not for round trips per
 * job.
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
