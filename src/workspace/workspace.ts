import type { Context } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { escapeForPage as e } from "../cli/html-page.js";
import { actorNameOf } from "../core/visible-name.js";
import { createAuditSampler } from "../relay/audit-sample.js";
import { eventWithoutTicket } from "../store/operator-event.js";
import { type ActionName, actionNames, isOutcome, outcomes, runAction } from "./actions.js";
import { type CookieNames, clearedCookie, sessionCookie, sessionIdOf } from "./cookies.js";
import { csrfMatches, sameOrigin, signInCookieOf, signInToken } from "./csrf.js";
import { itemModel } from "./item-model.js";
import { itemBody } from "./item-page.js";
import { listBody } from "./list-page.js";
import { createTagIndex, createWaitingSnapshot, listFilterOf, listView } from "./list-query.js";
import { createLiveEvents } from "./live-events.js";
import { workspacePage } from "./page-shell.js";
import { createQueueNotifier, type QueueNotifyOptions } from "./queue-notifier.js";
import { type ReplyOutcome, replyBody, replyOutcome, replyOutcomes } from "./reply-page.js";
import { createSessions, type Session } from "./sessions.js";
import { type SignInRefusal, signInBody } from "./sign-in-page.js";
import type { WorkspaceSource } from "./source.js";
import { suppressionRoutes } from "./suppressions-page.js";

/** What checking an operator token gives: the operator's name and the token's expiry, or why not. */
export type OperatorCheck =
  | {
      readonly ok: true;
      readonly operator: string;
      readonly expiresAt: number;
      /** Asked on every later request of the session: false once the token was revoked. */
      readonly stillValid?: () => boolean | Promise<boolean>;
    }
  | { readonly ok: false; readonly refusal: SignInRefusal; readonly audience?: string };

/**
 * Options of {@link createWorkspace}.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * createRelay({ outbox, secret, operatorSecret, workspace: { serviceLevelMs: 4 * 3_600_000 } });
 */
export interface WorkspaceOptions {
  readonly source: WorkspaceSource;
  /** Checks an operator token (the relay's operator tokens); a task token must be refused. */
  readonly verifyOperator: (token: string) => OperatorCheck | Promise<OperatorCheck>;
  /** Where the workspace is mounted. @default "/queue" */
  readonly basePath?: string;
  /** Longest life of a session. @default 28800000 (8 hours) */
  readonly sessionLifetimeMs?: number;
  /** A session unused this long ends. @default 1800000 (30 minutes) */
  readonly idleTimeoutMs?: number;
  /** A claim lapses after this long; anyone may then take the item. @default 1800000 (30 minutes) */
  readonly claimLapseMs?: number;
  /** Items waiting longer stand out. @default 14400000 (4 hours) */
  readonly serviceLevelMs?: number;
  /**
   * How long the list reuses its read of the waiting items when this process saw no change (changes
   * made by other processes show after at most this long, or at the next live event). @default 2000
   */
  readonly listCacheMs?: number;
  /** How often live pages read the audit log for changes. @default 1000 */
  readonly pollMs?: number;
  /**
   * Whether the session cookie is `Secure` (and `__Host-` prefixed). By default it is when the request
   * came over TLS: an `https:` URL, or `X-Forwarded-Proto: https` from the proxy in front.
   */
  readonly secureCookies?: boolean;
  /** Answer only requests naming these `Host` values (a loopback server against DNS rebinding). */
  readonly allowedHosts?: () => ReadonlySet<string> | undefined;
  /**
   * Lets a person write their own reply to an item's recipient (the one its draft was resolved for from
   * the ticket's records), sent once through the outbox's transports and audited with `author:
   * "person"`, for `formletter mine --audit`. Needs an outbox (a relay): `formletter queue --ui` holds no
   * transports. Off, the reply page and action answer 404. @default false
   */
  readonly humanReplies?: boolean;
  /** Largest form body, in bytes; larger is refused with 413. @default 65536 */
  readonly maxBodyBytes?: number;
  /**
   * A Standard Webhooks POST to `notify.url` when items arrive or pass the service level: batched, at
   * most one per `notify.everyMs`, ids and counts only, retried a bounded number of times. Off by default.
   */
  readonly notify?: QueueNotifyOptions;
  readonly clock?: () => number;
}

/** The workspace: a fetch handler to mount, and `close` to end live streams. */
export interface Workspace {
  readonly fetch: (request: Request) => Response | Promise<Response>;
  readonly basePath: string;
  close(): void;
}

const ids = /^[A-Za-z0-9._~-]{1,100}$/;

/**
 * The human queue as web pages for the people who work it: sign-in with an operator token, the list,
 * each item with its exact draft, and the actions, each one audited under the signed-in operator.
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  const source = options.source;
  const clock = options.clock ?? Date.now;
  const basePath = (options.basePath ?? "/queue").replace(/\/+$/, "");
  const claimLapseMs = options.claimLapseMs ?? 1_800_000;
  const serviceLevelMs = options.serviceLevelMs ?? 14_400_000;
  const sessions = createSessions(
    { lifetimeMs: options.sessionLifetimeMs ?? 28_800_000, idleMs: options.idleTimeoutMs ?? 1_800_000 },
    clock,
  );
  const waiting = createWaitingSnapshot(source, {
    maxAgeMs: options.listCacheMs ?? 2000,
    fullEveryMs: 60_000,
    clock,
  });
  // Made before anything else starts: a bad URL or secret fails at start-up with what to give.
  const notifier =
    options.notify === undefined
      ? undefined
      : createQueueNotifier(source.queue, { ...options.notify, serviceLevelMs, clock });
  notifier?.start();
  const live = createLiveEvents(source, {
    pollMs: options.pollMs ?? 1000,
    clock,
    onChange: waiting.invalidate,
  });
  const tags = createTagIndex(source);
  const approvals = {
    approve: source.queue.approve !== undefined,
    release: source.queue.release !== undefined,
  };
  const sendReply = options.humanReplies === true ? source.reply : undefined;

  const secure = (request: Request) =>
    options.secureCookies ??
    (new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https");
  const cookieNames = (request: Request): CookieNames => ({ secure: secure(request), basePath });
  const sessionId = (c: Context) => sessionIdOf(c.req.header("cookie"), secure(c.req.raw));

  const page = (c: Context, status: number, title: string, body: string, session?: Session) => {
    const shown = workspacePage({
      title,
      basePath,
      body,
      suppressions: source.suppressions !== undefined,
      operator: session === undefined ? undefined : { name: session.operator, csrf: session.csrf },
    });
    c.header("Content-Security-Policy", shown.policy);
    return c.html(shown.html, status as 200);
  };
  const notFound = (c: Context, session?: Session) =>
    page(
      c,
      404,
      "Not found",
      `<p>No such page or item. <a href="${e(basePath)}/">Back to the queue</a></p>`,
      session,
    );
  const refused = (c: Context, status: number, text: string) =>
    page(
      c,
      status,
      "Refused",
      `<p class="flash refused" role="alert">${e(text)}</p><p><a href="${e(basePath)}/">Back to the queue</a></p>`,
    );

  // Nothing limits who may try to sign in, and each audited refusal is a row: in full up to 20 a minute,
  // then one in 100, each saying how many went unaudited before it (the relay's rule for token refusals).
  const sampleRefusal = createAuditSampler({ full: 20, every: 100, windowMs: 60_000 }, clock);
  const audit = (actor: string, data: Record<string, unknown>) =>
    source.audit
      .append(eventWithoutTicket(clock(), "access", actor, { via: "workspace", ...data }))
      .catch(() => undefined);

  const signInPage = (c: Context, status: number, refusal?: SignInRefusal) => {
    const form = signInToken(basePath, secure(c.req.raw));
    c.header("Set-Cookie", form.cookie, { append: true });
    return page(c, status, "Sign in to the queue", signInBody(basePath, form.token, refusal));
  };

  // Reads a posted form: only a form encoding, within the body limit, each field once. A field sent
  // twice is refused whole: a parser keeping one of the two would act on a value the page never showed.
  const formOf = async (c: Context): Promise<Record<string, string> | undefined> => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/x-www-form-urlencoded\b|^multipart\/form-data\b/i.test(type)) return undefined;
    const body = await c.req.parseBody({ all: true });
    if (Object.values(body).some((value) => Array.isArray(value))) return undefined;
    return Object.fromEntries(
      Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  };

  const app = new Hono({ strict: false }).basePath(basePath);
  app.use("*", async (c, next) => {
    const hosts = options.allowedHosts?.();
    if (hosts !== undefined && !hosts.has(c.req.header("host") ?? "")) return c.text("unknown host", 421);
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    // Not "no-referrer": under it a browser sends `Origin: null` with the page's own forms, and the
    // origin check could not tell them from a sandboxed page elsewhere. Other sites get no referrer.
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
    c.header("X-Frame-Options", "DENY");
    return undefined;
  });
  app.post(
    "*",
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 65_536,
      onError: (c) =>
        refused(
          c,
          413,
          `The form is larger than ${options.maxBodyBytes ?? 65_536} bytes and was refused: a note holds at most 4,000 characters. Shorten it and send again.`,
        ),
    }),
  );

  app.get("/sign-in", (c) => signInPage(c, 200));
  app.post("/sign-in", async (c) => {
    const form = await formOf(c);
    const paired = signInCookieOf(c.req.header("cookie"), secure(c.req.raw));
    if (
      form === undefined ||
      !sameOrigin(c.req.raw) ||
      paired === undefined ||
      !csrfMatches(form.csrf, paired)
    )
      return signInPage(c, 403, "form_expired");
    const token = (form.token ?? "").trim();
    let check: OperatorCheck;
    try {
      check = token === "" ? { ok: false, refusal: "token_missing" } : await options.verifyOperator(token);
    } catch {
      check = { ok: false, refusal: "unavailable" };
    }
    const operator = check.ok ? actorNameOf(check.operator) : undefined;
    if (!check.ok || operator === undefined) {
      const refusal: SignInRefusal = check.ok ? "actor_invalid" : check.refusal;
      const sampled = sampleRefusal();
      if (sampled.audit)
        await audit("workspace", {
          ...(sampled.unaudited > 0 ? { unaudited: sampled.unaudited } : {}),
          action: "sign_in",
          refusal,
          ...(check.ok ? {} : check.audience ? { audience: check.audience } : {}),
        });
      return signInPage(c, 401, refusal);
    }
    const { id, session } = sessions.open(operator, check.expiresAt, check.stillValid);
    await audit(operator, { action: "sign_in" });
    c.header("Set-Cookie", sessionCookie(cookieNames(c.req.raw), id, (session.expiresAt - clock()) / 1000), {
      append: true,
    });
    return c.redirect(`${basePath}/`, 303);
  });

  // Every other page needs a live session whose token was not revoked since; a check that cannot
  // answer ends the session (a token not known to be good is not used).
  const signedIn = async (c: Context): Promise<Session | undefined> => {
    const id = sessionId(c);
    const session = sessions.use(id);
    if (session?.stillValid === undefined) return session;
    let valid: unknown;
    try {
      valid = await session.stillValid();
    } catch {
      valid = false;
    }
    if (valid === true) return session;
    sessions.close(id);
    return undefined;
  };

  app.post("/sign-out", async (c) => {
    const id = sessionId(c);
    const session = sessions.peek(id);
    const form = await formOf(c);
    if (session === undefined) return c.redirect(`${basePath}/sign-in`, 303);
    if (form === undefined || !sameOrigin(c.req.raw) || !csrfMatches(form.csrf, session.csrf))
      return refused(c, 403, "The form did not carry this session's token: nothing was done.");
    sessions.close(id);
    await audit(session.operator, { action: "sign_out" });
    c.header("Set-Cookie", clearedCookie(cookieNames(c.req.raw)), { append: true });
    return c.redirect(`${basePath}/sign-in`, 303);
  });

  app.get("/", async (c) => {
    const session = await signedIn(c);
    if (session === undefined) return c.redirect(`${basePath}/sign-in`, 303);
    const query = new URL(c.req.url).searchParams;
    const filter = listFilterOf(query);
    const now = clock();
    const all = await waiting.read();
    const view = listView(all, await tags(all.items), filter, {
      operator: session.operator,
      now,
      serviceLevelMs,
      claimLapseMs,
    });
    return page(
      c,
      200,
      "Human queue",
      listBody(view, filter, { basePath, operator: session.operator, now, serviceLevelMs, claimLapseMs }),
      session,
    );
  });

  app.get("/events", (c) => {
    const id = sessionId(c);
    if (sessions.peek(id) === undefined) return c.text("sign in first", 401);
    return live.subscribe(() => sessions.peek(id) !== undefined);
  });

  app.get("/items/:id", async (c) => {
    const session = await signedIn(c);
    if (session === undefined) return c.redirect(`${basePath}/sign-in`, 303);
    const id = c.req.param("id");
    const model = ids.test(id) ? await itemModel(source, id) : undefined;
    if (model === undefined) return notFound(c, session);
    const done = c.req.query("done");
    const flash = isOutcome(done)
      ? outcomes[done]
      : typeof done === "string" && Object.hasOwn(replyOutcomes, done)
        ? replyOutcomes[done as ReplyOutcome]
        : undefined;
    return page(
      c,
      200,
      `Queue item ${model.item.id}`,
      itemBody(model, {
        basePath,
        operator: session.operator,
        csrf: session.csrf,
        now: clock(),
        serviceLevelMs,
        claimLapseMs,
        approvals,
        replies: sendReply !== undefined,
        flash,
      }),
      session,
    );
  });

  // A person's own reply: a page of its own, so that with humanReplies off both the page and the
  // action are unknown paths (404), as for any other path the workspace does not serve.
  app.get("/items/:id/reply", async (c) => {
    const session = await signedIn(c);
    if (session === undefined) return c.redirect(`${basePath}/sign-in`, 303);
    const id = c.req.param("id");
    if (sendReply === undefined || !ids.test(id)) return notFound(c, session);
    const item = await source.queue.get(id);
    if (item === undefined) return notFound(c, session);
    if ((item.status !== "open" && item.status !== "claimed") || item.draft === undefined)
      return c.redirect(
        `${basePath}/items/${encodeURIComponent(id)}?done=${item.draft === undefined ? "reply_no_recipient" : "reply_closed"}`,
        303,
      );
    return page(
      c,
      200,
      `Reply on ${item.ticketId}`,
      replyBody(item, { basePath, csrf: session.csrf }),
      session,
    );
  });
  app.post("/items/:id/reply", async (c) => {
    const session = await signedIn(c);
    if (session === undefined)
      return refused(c, 401, "Your session has ended: sign in again. Nothing was done.");
    if (sendReply === undefined) return notFound(c, session);
    const form = await formOf(c);
    if (form === undefined) return refused(c, 415, "Send the page's own form: nothing was done.");
    if (!sameOrigin(c.req.raw) || !csrfMatches(form.csrf, session.csrf))
      return refused(c, 403, "The form did not carry this session's token: nothing was done.");
    const id = c.req.param("id");
    if (!ids.test(id)) return notFound(c, session);
    let outcome: ReplyOutcome | "not_found";
    try {
      outcome = replyOutcome(
        await sendReply({
          queueItemId: id,
          text: form.text ?? "",
          ...(form.subject === undefined ? {} : { subject: form.subject }),
          by: session.operator,
        }),
      );
    } catch {
      outcome = "reply_unavailable";
    }
    waiting.invalidate();
    if (outcome === "not_found") return notFound(c, session);
    return c.redirect(`${basePath}/items/${encodeURIComponent(id)}?done=${outcome}`, 303);
  });

  if (source.suppressions !== undefined) {
    const lifting = suppressionRoutes({
      basePath,
      suppressions: source.suppressions,
      signedIn,
      formOf,
      page,
      refused,
    });
    app.get("/suppressions", lifting.list);
    app.post("/suppressions/lift", lifting.lift);
  }

  app.post("/items/:id/:action", async (c) => {
    const session = await signedIn(c);
    if (session === undefined)
      return refused(c, 401, "Your session has ended: sign in again. Nothing was done.");
    const form = await formOf(c);
    if (form === undefined) return refused(c, 415, "Send the page's own form: nothing was done.");
    if (!sameOrigin(c.req.raw) || !csrfMatches(form.csrf, session.csrf))
      return refused(c, 403, "The form did not carry this session's token: nothing was done.");
    const id = c.req.param("id");
    const action = c.req.param("action") as ActionName;
    if (!ids.test(id) || !actionNames.includes(action)) return notFound(c, session);
    const outcome = await runAction(
      source,
      action,
      id,
      session.operator,
      { note: form.note, resolution: form.resolution },
      claimLapseMs,
    );
    // What this process changed is shown on the next page at once, not after the list's cache expires.
    waiting.invalidate();
    if (outcome === "not_found") return notFound(c, session);
    return c.redirect(`${basePath}/items/${encodeURIComponent(id)}?done=${outcome}`, 303);
  });

  app.notFound((c) => notFound(c));
  app.onError((_error, c) =>
    refused(c, 500, "The workspace could not answer: nothing is known to have changed."),
  );

  return {
    fetch: (request) => app.fetch(request),
    basePath,
    close: () => {
      notifier?.stop();
      live.close();
    },
  };
}
