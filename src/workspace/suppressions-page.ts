import type { Context } from "hono";
import { escapeForPage as e } from "../cli/html-page.js";
import { isFormletterError } from "../core/errors.js";
import { destinationShown } from "../outbox/first-contact.js";
import type { LiftResult } from "../outbox/index.js";
import type { Suppression, SuppressionPage } from "../store/index.js";
import { csrfMatches, sameOrigin } from "./csrf.js";
import { scrollingTable } from "./page-shell.js";
import type { Session } from "./sessions.js";

/** The outbox's suppressions, as the workspace reads and lifts them. */
export interface WorkspaceSuppressions {
  list(filter?: { limit?: number; cursor?: string }): Promise<SuppressionPage>;
  lift(destination: string, actor: { by: string; note?: string }): Promise<LiftResult>;
}

/**
 * What a lift did, as one code of a closed list: the redirect's query string carries the code and the
 * page shows its sentence, never text from the request.
 */
const liftOutcomes = {
  lifted: { text: "Lifted: the next decision to that destination sends again.", refused: false },
  not_suppressed: {
    text: "That destination was not suppressed (already lifted, or never): nothing was done.",
    refused: true,
  },
  destination_invalid: {
    text: "The form named no destination this page lists: nothing was done.",
    refused: true,
  },
  note_too_long: { text: "A note holds at most 500 characters: shorten it and send again.", refused: true },
  unavailable: {
    text: "The outbox could not be reached: nothing is known to have changed. Try again.",
    refused: true,
  },
} as const;
type LiftOutcome = keyof typeof liftOutcomes;

const pageSize = 100;
const maxNote = 500;
const cursorPattern = /^[0-9a-f]{1,64}$/;
const when = (at: number) => new Date(at).toISOString().replace("T", " ").slice(0, 19);

/** What the handlers need from the workspace around them. */
export interface SuppressionRoutesContext {
  readonly basePath: string;
  readonly suppressions: WorkspaceSuppressions;
  readonly signedIn: (c: Context) => Promise<Session | undefined>;
  readonly formOf: (c: Context) => Promise<Record<string, string> | undefined>;
  readonly page: (c: Context, status: number, title: string, body: string, session?: Session) => Response;
  readonly refused: (c: Context, status: number, text: string) => Response;
}

function row(suppression: Suppression, base: string, csrf: string): string {
  // The full hash travels only in the form's hidden field: it names the row to lift, and is a keyed
  // hash, not the address. The page shows the prefix the audit log and the escalation facts show.
  return `<tr><th scope="row"><code>${e(destinationShown(suppression.destination))}</code></th><td>${e(suppression.channel)}</td><td>${e(suppression.cause)}</td><td>${e(suppression.provider)}</td><td>${e(when(suppression.at))}</td><td><form class="action" method="post" action="${e(base)}/suppressions/lift"><input type="hidden" name="csrf" value="${e(csrf)}"><input type="hidden" name="destination" value="${e(suppression.destination)}"><label>note<input type="text" name="note" maxlength="${maxNote}"></label><button type="submit">Lift</button></form></td></tr>`;
}

function body(view: SuppressionPage, base: string, csrf: string, done: string | undefined): string {
  const flash =
    typeof done === "string" && Object.hasOwn(liftOutcomes, done)
      ? liftOutcomes[done as LiftOutcome]
      : undefined;
  const rows = view.items.map((item) => row(item, base, csrf)).join("\n");
  return `${flash === undefined ? "" : `<p class="flash${flash.refused ? " refused" : ""}" role="${flash.refused ? "alert" : "status"}">${e(flash.text)}</p>`}
<p>Destinations a provider reported as a hard bounce or a complaint. A decision to one escalates as
<code>destination_suppressed</code> until a person lifts it here; each lift is audited under your name.</p>
${
  view.items.length === 0
    ? "<p>No destination is suppressed.</p>"
    : scrollingTable(
        "suppressed destinations",
        `<table><thead><tr><th scope="col">destination (hash prefix)</th><th scope="col">channel</th><th scope="col">cause</th><th scope="col">provider</th><th scope="col">since (UTC)</th><th scope="col">lift</th></tr></thead><tbody>
${rows}
</tbody></table>`,
      )
}
${view.nextCursor === undefined ? "" : `<p><a href="${e(`${base}/suppressions?${new URLSearchParams({ cursor: view.nextCursor })}`)}" rel="next">next</a></p>`}`;
}

async function liftOutcome(
  suppressions: WorkspaceSuppressions,
  form: Record<string, string>,
  by: string,
): Promise<LiftOutcome> {
  const destination = form.destination ?? "";
  const note = (form.note ?? "").trim();
  if (!/^[0-9a-f]{64}$/.test(destination)) return "destination_invalid";
  if (note.length > maxNote) return "note_too_long";
  try {
    const result = await suppressions.lift(destination, note === "" ? { by } : { by, note });
    return result.lifted ? "lifted" : "not_suppressed";
  } catch (error) {
    return isFormletterError(error) && error.code === "outbox_invalid"
      ? "destination_invalid"
      : "unavailable";
  }
}

/**
 * The suppressions page and its lift action, for a workspace over an outbox: the list with each
 * destination's hash prefix, channel, cause and date, and a lift that carries the session's CSRF token
 * and is audited with the signed-in operator as the lift's `by`.
 */
export function suppressionRoutes(context: SuppressionRoutesContext) {
  const { basePath, suppressions } = context;
  return {
    async list(c: Context): Promise<Response> {
      const session = await context.signedIn(c);
      if (session === undefined) return c.redirect(`${basePath}/sign-in`, 303);
      const cursor = c.req.query("cursor");
      const view = await suppressions.list(
        cursor !== undefined && cursorPattern.test(cursor)
          ? { limit: pageSize, cursor }
          : { limit: pageSize },
      );
      return context.page(
        c,
        200,
        "Suppressed destinations",
        body(view, basePath, session.csrf, c.req.query("done")),
        session,
      );
    },
    async lift(c: Context): Promise<Response> {
      const session = await context.signedIn(c);
      if (session === undefined)
        return context.refused(c, 401, "Your session has ended: sign in again. Nothing was done.");
      const form = await context.formOf(c);
      if (form === undefined) return context.refused(c, 415, "Send the page's own form: nothing was done.");
      if (!sameOrigin(c.req.raw) || !csrfMatches(form.csrf, session.csrf))
        return context.refused(c, 403, "The form did not carry this session's token: nothing was done.");
      const outcome = await liftOutcome(suppressions, form, session.operator);
      return c.redirect(`${basePath}/suppressions?done=${outcome}`, 303);
    },
  };
}
