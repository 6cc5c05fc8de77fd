/**
 * What the workspace tests share: a relay serving the workspace over an outbox on a real SQLite file,
 * a catalog with an HTML template that needs approval, records and notes carrying markup, and a small
 * browser-like client that keeps cookies and reads forms' tokens.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  format,
  memoryTransport,
  type Outbox,
  type Store,
} from "../../src/index.js";
import { createRelay, type Relay, type RelayOptions } from "../../src/relay/index.js";
import type { RelayWorkspaceOptions } from "../../src/relay/workspace-mount.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { MemoryTransport } from "../../src/transport/index.js";

export const agentSecret = "agent-secret-0123456789-abcdefghijklmnop";
export const operatorSecret = "operator-secret-0123456789-abcdefghijklm";
/** Markup that would run if any page wrote a value as HTML. */
export const canary = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

const records = defineRecords(
  {
    customers: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    orders: z.object({ id: z.string(), customerId: z.string(), number: z.string(), note: z.string() }),
  },
  { labels: { customers: (c) => `customer ${c.name}`, orders: (o) => `order ${o.number}` } },
);
const { slot } = records;
const order = slot.ref("orders", { show: { number: "number", note: "note" } });
const to = slot.ref("customers", { show: "email", as: format.email(), match: { id: "order.customerId" } });
const customer = slot.ref("customers", { show: "name", match: { id: "order.customerId" } });

export const refundNotice = defineTemplate(records, {
  id: "refund_notice",
  description: "Tell the customer their refund was issued",
  audience: "customer",
  effect: "irreversible",
  channel: "email",
  to,
  subject: "Refund for order {{order.number}}",
  body: "Hello {{customer}},\n\nyour refund for order {{order.number}} was issued. Note: {{order.note}}",
  html: "<p>Hello {{customer}},</p><p>your refund for order <b>{{order.number}}</b> was issued. Note: {{order.note}}</p>",
  slots: { order, customer },
  limits: { perTicket: 3, perDay: 100_000 },
  approval: "human",
});

export const shopCatalog = createCatalog(records, [refundNotice], { escalationCodes: ["needs_human"] });

/** Notes the system of record now holds for a ticket's order, in place of the canary: records edited. */
export const editedNotes = new Map<string, string>();

/** One ticket whose every text field carries the canary. */
export function shopTicket(ticketId: string) {
  return {
    ticketId,
    customers: [{ id: `C-${ticketId}`, name: `Ada ${canary}`, email: `ada-${ticketId}@shop.example` }],
    orders: [
      {
        id: `O-${ticketId}`,
        customerId: `C-${ticketId}`,
        number: `N-${ticketId}`,
        note: editedNotes.get(ticketId) ?? canary,
      },
    ],
  };
}

/** The model's proposal of the refund notice for a ticket. */
export function refundProposal(ticketId: string) {
  const handles = shopCatalog.handles(shopTicket(ticketId));
  return {
    template: "refund_notice",
    slots: {
      order: handles.get("orders", `O-${ticketId}`) ?? "",
      customer: handles.get("customers", `C-${ticketId}`) ?? "",
      to: handles.get("customers", `C-${ticketId}`) ?? "",
    },
  };
}

export interface WorkspaceRig {
  readonly relay: Relay;
  readonly outbox: Outbox;
  readonly store: Store;
  readonly transport: MemoryTransport;
  readonly url: string;
  readonly file: string;
}

/** A relay with the workspace on a real port over a real SQLite file, for each test of the block. */
export function useWorkspace(
  options: RelayWorkspaceOptions & { clock?: () => number; revoked?: RelayOptions["revoked"] } = {},
) {
  let current: WorkspaceRig | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "formletter-workspace-"));
    const file = join(dir, "outbox.db");
    const store = sqliteStore(file);
    const transport = memoryTransport();
    const { clock, revoked, ...workspace } = options;
    const outbox = createOutbox({
      catalog: shopCatalog,
      load: (ticketId: string) => shopTicket(ticketId),
      store,
      transports: { email: transport },
      ...(clock === undefined ? {} : { clock }),
    });
    const relay = createRelay({
      outbox,
      secret: agentSecret,
      operatorSecret,
      workspace,
      ...(clock === undefined ? {} : { clock }),
      ...(revoked === undefined ? {} : { revoked }),
    });
    const { url } = await relay.listen({ port: 0 });
    current = { relay, outbox, store, transport, url, file };
  });
  afterEach(async () => {
    await current?.relay.close();
    await current?.outbox.close();
    current = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get rig(): WorkspaceRig {
      if (current === undefined) throw new Error("useWorkspace: no rig outside a test");
      return current;
    },
  };
}

/** Escalations and an approval draft in the queue: returns the approval item's id. */
export async function populate(rig: WorkspaceRig, ticketId = "T-1"): Promise<string> {
  await rig.outbox.handle({
    ticketId: `E-${ticketId}`,
    runId: "run-1",
    output: { escalate: "needs_human", note: `upset ${canary}` },
    tags: { category: "damage" },
  });
  const result = await rig.outbox.handle({
    ticketId,
    runId: "run-1",
    output: refundProposal(ticketId),
    tags: { category: "refund" },
  });
  if (result.queueItemId === undefined) throw new Error("fixture: the refund was not queued");
  return result.queueItemId;
}

/** A browser stand-in: keeps cookies per name, follows nothing, reads the page's CSRF token. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly url: string) {}

  async request(
    path: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      body?: string;
    } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let body = init.body;
    if (init.form !== undefined) {
      body = new URLSearchParams(init.form).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    const response = await fetch(`${this.url}${path}`, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      redirect: "manual",
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** The value of the first hidden `csrf` field of a page. */
  static csrfOf(html: string): string {
    const found = /name="csrf" value="([^"]+)"/.exec(html);
    if (found?.[1] === undefined) throw new Error("no csrf field on the page");
    return found[1];
  }

  /** Signs in with `token`: the sign-in page's form, then the post. */
  async signIn(token: string) {
    const form = await this.request("/queue/sign-in");
    return this.request("/queue/sign-in", { form: { csrf: Browser.csrfOf(form.text), token } });
  }
}

/** A browser signed in as `operator` with a token the rig's relay minted. */
export async function signedIn(rig: WorkspaceRig, operator = "ana"): Promise<Browser> {
  const browser = new Browser(rig.url);
  await browser.signIn(await rig.relay.mintOperatorToken({ operator }));
  return browser;
}
