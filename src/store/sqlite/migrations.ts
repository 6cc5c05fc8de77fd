// The hour a minute falls in, rounded down as the store's Math.floor does (SQLite's integer division
// rounds toward zero, which differs for minutes before 1970).
const hourOf = (minute: string) =>
  `CASE WHEN ${minute} >= 0 THEN ${minute} / 60 ELSE (${minute} - 59) / 60 END`;
const hourOfMinute = hourOf("minute");

/**
 * The SQLite schema, as numbered migrations. A file records the version it is at (`PRAGMA
 * user_version`); opening applies the missing migrations in one transaction, and refuses a file written
 * by a newer version of formletter.
 */
export const migrations: readonly string[] = [
  // 1: audit log, outbound messages, human queue, idempotency reservations, per-minute send counts.
  `
  CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    type TEXT NOT NULL,
    ticket_id TEXT,
    run_id TEXT,
    template TEXT,
    outcome TEXT,
    reason TEXT,
    key TEXT,
    actor TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX audit_at ON audit (at, id);
  CREATE INDEX audit_ticket ON audit (ticket_id, at);

  CREATE TABLE outbound (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    ticket_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    template TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    lease_until INTEGER,
    delivered_at INTEGER,
    receipt_id TEXT,
    body_sha256 TEXT NOT NULL
  );
  CREATE INDEX outbound_pending ON outbound (id) WHERE status = 'pending';

  CREATE TABLE queue (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    reason TEXT NOT NULL,
    ticket_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    template TEXT,
    detail TEXT NOT NULL,
    key TEXT,
    draft TEXT,
    note TEXT,
    created_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_at INTEGER,
    closed_by TEXT,
    closed_at INTEGER,
    resolution TEXT,
    close_note TEXT,
    audit_id TEXT NOT NULL,
    outbound_id TEXT
  );
  CREATE INDEX queue_status ON queue (status, id);

  CREATE TABLE reservations (
    key TEXT PRIMARY KEY,
    template TEXT NOT NULL,
    ticket_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    result TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX reservations_ticket ON reservations (template, ticket_id);
  CREATE INDEX reservations_run ON reservations (run_id);

  CREATE TABLE send_counts (
    template TEXT NOT NULL,
    minute INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (template, minute)
  ) WITHOUT ROWID;
  `,
  // 2: rows being delivered (or in doubt after a crash) are claimed as pending ones are.
  `
  DROP INDEX outbound_pending;
  CREATE INDEX outbound_due ON outbound (id) WHERE status IN ('pending', 'delivering');
  `,
  // 3: value ceilings: the units reserved per ceiling group and currency ("" for numbers), per minute;
  // first contact: every destination sent to, as a keyed hash (never the address).
  `
  CREATE TABLE contacts (
    destination TEXT PRIMARY KEY,
    template TEXT NOT NULL,
    at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE spend (
    group_name TEXT NOT NULL,
    currency TEXT NOT NULL,
    minute INTEGER NOT NULL,
    units INTEGER NOT NULL,
    PRIMARY KEY (group_name, currency, minute)
  ) WITHOUT ROWID;
  `,
  // 4: reservations in a rowid table, their key in an index of its own. As the key is a hash, a
  // table keyed by it put each new reservation, result and all, on a page of its own to rewrite: a
  // group's reservations now share the table's last pages, and only the small key entries land apart.
  // A send's result leaves its message to the outbound row written with it (rows.ts: storedResult);
  // results stored before keep theirs and read as they are.
  `
  CREATE TABLE reservations_by_row (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    template TEXT NOT NULL,
    ticket_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    result TEXT NOT NULL
  );
  INSERT INTO reservations_by_row (key, template, ticket_id, run_id, at, result)
    SELECT key, template, ticket_id, run_id, at, result FROM reservations ORDER BY at, key;
  DROP TABLE reservations;
  ALTER TABLE reservations_by_row RENAME TO reservations;
  CREATE UNIQUE INDEX reservations_key ON reservations (key);
  CREATE INDEX reservations_ticket ON reservations (template, ticket_id);
  CREATE INDEX reservations_run ON reservations (run_id);
  `,
  // 5: counts and spend per hour beside those per minute, so a day's count or sum reads at most 59
  // minutes and 24 hours, not the 1,440 minutes a day of steady sending leaves.
  `
  CREATE TABLE send_counts_hourly (
    template TEXT NOT NULL,
    hour INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (template, hour)
  ) WITHOUT ROWID;
  INSERT INTO send_counts_hourly (template, hour, n)
    SELECT template, ${hourOfMinute}, SUM(n) FROM send_counts GROUP BY template, ${hourOfMinute};
  CREATE TABLE spend_hourly (
    group_name TEXT NOT NULL,
    currency TEXT NOT NULL,
    hour INTEGER NOT NULL,
    units INTEGER NOT NULL,
    PRIMARY KEY (group_name, currency, hour)
  ) WITHOUT ROWID;
  INSERT INTO spend_hourly (group_name, currency, hour, units)
    SELECT group_name, currency, ${hourOfMinute}, SUM(units) FROM spend GROUP BY group_name, currency, ${hourOfMinute};
  `,
  // 6: triggers on the minute rows keep each hour the sum of its minutes, whoever writes them. A process
  // that opened the file before migration 5 keeps running its own code and writes minutes only; its sends
  // would have been missing from the hours, and a day's count low. The hours are filled again from the
  // minutes, in the migration's write transaction, so any such send is counted from here on. A process
  // still running version 5's code writes its hours itself as well, so its sends count twice until it is
  // restarted: a day's limit is reached early, never passed.
  `
  DELETE FROM send_counts_hourly;
  INSERT INTO send_counts_hourly (template, hour, n)
    SELECT template, ${hourOfMinute}, SUM(n) FROM send_counts GROUP BY template, ${hourOfMinute};
  DELETE FROM spend_hourly;
  INSERT INTO spend_hourly (group_name, currency, hour, units)
    SELECT group_name, currency, ${hourOfMinute}, SUM(units) FROM spend GROUP BY group_name, currency, ${hourOfMinute};
${hourTriggers("send_counts", "send_counts_hourly", ["template"], "n")}
${hourTriggers("spend", "spend_hourly", ["group_name", "currency"], "units")}
  `,
  // 7: delivery status coming back: outbound rows found by their transport receipt (the provider's
  // message id), each provider event id recorded once (a replayed event counts once), and suppressed
  // destinations, as the keyed hash first contact uses (never the address).
  `
  CREATE INDEX outbound_receipt ON outbound (receipt_id) WHERE receipt_id IS NOT NULL;
  CREATE TABLE delivery_events (
    id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE suppressions (
    destination TEXT PRIMARY KEY,
    channel TEXT NOT NULL,
    cause TEXT NOT NULL,
    provider TEXT NOT NULL,
    at INTEGER NOT NULL,
    audit_id TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 8: a send's reservation is filed under its outbound row rather than its key (store.ts:
  // reservationName), which earlier versions would not find: they refuse a file at this version.
  `
  SELECT 1;
  `,
  // 9: each outbound row records the template and catalog versions that produced its message. Null in
  // rows written before, and in rows a process that opened the file at version 8 still writes (its
  // inserts name their columns); a formletter at version 8 or earlier refuses to open a file at this one.
  `
  ALTER TABLE outbound ADD COLUMN template_version TEXT;
  ALTER TABLE outbound ADD COLUMN catalog_version TEXT;
  `,
];

/**
 * Triggers that add each change of a minute table's rows to its hourly table: an insert adds its amount,
 * an update (an upsert's addition included) adds the difference, or moves the old amount out of its hour
 * and the new one in if the row changed hours, a delete takes its amount back (nothing deletes minute
 * rows; one pruning them keeps the hours their sums).
 */
function hourTriggers(minutes: string, hours: string, keys: readonly string[], amount: string): string {
  const columns = [...keys, "hour", amount].join(", ");
  const add = (row: "NEW" | "OLD", value: string) =>
    `INSERT INTO ${hours} (${columns}) VALUES (${keys.map((key) => `${row}.${key}`).join(", ")}, ${hourOf(`${row}.minute`)}, ${value})
      ON CONFLICT (${[...keys, "hour"].join(", ")}) DO UPDATE SET ${amount} = ${amount} + excluded.${amount};`;
  const sameHour = [
    ...keys.map((key) => `NEW.${key} IS OLD.${key}`),
    `${hourOf("NEW.minute")} = ${hourOf("OLD.minute")}`,
  ].join(" AND ");
  return `
  CREATE TRIGGER ${minutes}_insert_to_hour AFTER INSERT ON ${minutes} BEGIN
    ${add("NEW", `NEW.${amount}`)}
  END;
  CREATE TRIGGER ${minutes}_update_in_hour AFTER UPDATE ON ${minutes} WHEN ${sameHour} BEGIN
    ${add("NEW", `NEW.${amount} - OLD.${amount}`)}
  END;
  CREATE TRIGGER ${minutes}_update_across_hours AFTER UPDATE ON ${minutes} WHEN NOT (${sameHour}) BEGIN
    ${add("OLD", `-OLD.${amount}`)}
    ${add("NEW", `NEW.${amount}`)}
  END;
  CREATE TRIGGER ${minutes}_delete_to_hour AFTER DELETE ON ${minutes} BEGIN
    ${add("OLD", `-OLD.${amount}`)}
  END;`;
}

/** The schema version this build writes. */
export const schemaVersion = migrations.length;
