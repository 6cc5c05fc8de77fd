import { describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { destinationHash } from "../../src/outbox/first-contact.js";
import type { AuditEvent } from "../../src/store/store.js";
import {
  Browser,
  canary,
  populate,
  refundProposal,
  shopCatalog,
  shopTicket,
  signedIn,
  useWorkspace,
  type WorkspaceRig,
} from "./rig.js";

/** Posts a reply as the reply page's form does, with the session's CSRF token read from the page. */
async function reply(browser: Browser, id: string, fields: Record<string, string>) {
  const page = await browser.request(`/queue/items/${id}`);
  return browser.request(`/queue/items/${id}/reply`, {
    form: { csrf: Browser.csrfOf(page.text), ...fields },
  });
}

const outcomeOf = (answer: { status: number; headers: Headers }) =>
  answer.status === 303
    ? new URL(answer.headers.get("location") ?? "", "http://x").searchParams.get("done")
    : `status ${answer.status}`;

async function replies(rig: WorkspaceRig): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const event of rig.store.queryAudit({ type: "queue" }))
    if (event.data.action === "person_reply") events.push(event);
  return events;
}

async function escalatedId(rig: WorkspaceRig): Promise<string> {
  const page = await rig.outbox.queue.list({ reason: "model_escalated" });
  const id = page.items[0]?.id;
  if (id === undefined) throw new Error("fixture: no escalation");
  return id;
}

describe("a person's own reply", () => {
  const setup = useWorkspace({ humanReplies: true });

  it("sends the reply once to the draft's recipient, as text, audited with the operator, and resolves the item", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const draft = (await rig.outbox.queue.get(id))?.draft;
    const ana = await signedIn(rig);
    const form = await ana.request(`/queue/items/${id}/reply`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`To <strong>ada-t-1@shop.example</strong>`);
    const text = `Hello, your refund is on its way.\r\n${canary}`;
    const first = await reply(ana, id, { text, subject: "Your refund" });
    expect(outcomeOf(first)).toBe("replied");
    const second = await ana.request(`/queue/items/${id}/reply`, {
      form: { csrf: Browser.csrfOf(form.text), text, subject: "Your refund" },
    });
    expect(outcomeOf(second)).toBe("reply_already_sent");
    expect(rig.transport.sent).toHaveLength(1);
    const sent = rig.transport.sent[0]?.message;
    expect(sent?.to).toBe(draft?.to);
    expect(sent?.channel).toBe("email");
    expect(sent?.subject).toBe("Your refund");
    expect(sent?.text).toBe(`Hello, your refund is on its way.\n${canary}`);
    expect(sent?.html).toBeUndefined();
    const item = await rig.outbox.queue.get(id);
    expect([item?.status, item?.resolution, item?.closedBy]).toEqual(["resolved", "replied", "ana"]);
    const events = await replies(rig);
    expect(events).toHaveLength(1);
    expect(events[0]?.actor).toBe("ana");
    expect(events[0]?.data).toMatchObject({
      author: "person",
      item: id,
      message: { to: draft?.to, subject: "Your refund", text: sent?.text },
      records: { orders: [{ id: "O-T-1" }] },
    });
    // The item's earlier actions show the reply, as text: markup in it is escaped, never markup.
    const shown = await ana.request(`/queue/items/${id}?done=replied`);
    expect(shown.text).toContain("Your reply was sent to the ticket&#39;s recipient");
    expect(shown.text).toContain("reply: Hello, your refund is on its way.");
    expect(shown.text).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect(shown.text).not.toContain("<script>window.__pwned");
  });

  it("warns, without blocking, of an address the records do not hold", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const answer = await reply(ana, id, { text: "Write to refunds@elsewhere.example instead." });
    expect(outcomeOf(answer)).toBe("replied_email");
    expect(rig.transport.sent).toHaveLength(1);
    expect((await replies(rig))[0]?.data.scan).toBe("email");
    const page = await ana.request(`/queue/items/${id}?done=replied_email`);
    expect(page.text).toContain("it holds an e-mail address that is not in the ticket");
    // The recipient's own address and the draft's text are accounted for.
    const other = await populate(rig, "T-2");
    expect(outcomeOf(await reply(ana, other, { text: "Copy to ada-t-2@shop.example, order N-T-2." }))).toBe(
      "replied",
    );
  });

  it.each([
    ["an empty text", { text: "  \n " }, "reply_text_empty"],
    ["a text over 10,000 characters", { text: "x".repeat(10_001) }, "reply_text_too_long"],
    ["a control character", { text: "hi\u0007there" }, "reply_text_control"],
    ["a bidi override", { text: "hi \u202Eereht" }, "reply_text_control"],
    ["CRLF in the subject", { text: "hi", subject: "Hi\r\nBcc: eve@evil.example" }, "reply_subject_invalid"],
    ["a subject over 200 characters", { text: "hi", subject: "s".repeat(201) }, "reply_subject_invalid"],
    ["a line separator in the subject", { text: "hi", subject: "Hi\u2028Bcc: eve" }, "reply_subject_invalid"],
    [
      "a next-line character in the subject",
      { text: "hi", subject: "Hi\u0085Bcc: eve" },
      "reply_subject_invalid",
    ],
    ["a lone CR in the subject", { text: "hi", subject: "Hi\rBcc: eve" }, "reply_subject_invalid"],
    ["a zero-width space in the text", { text: "pay\u200Bpal" }, "reply_text_control"],
  ])("refuses %s with a sentence, and sends nothing", async (_name, fields, code) => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const answer = await reply(ana, id, fields);
    expect(outcomeOf(answer)).toBe(code);
    expect(rig.transport.sent).toHaveLength(0);
    expect((await rig.outbox.queue.get(id))?.status).toBe("open");
  });

  it("offers no reply without a recipient from the records, to an unknown or closed item, or without the form's token", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const escalated = await escalatedId(rig);
    const ana = await signedIn(rig);
    expect((await ana.request(`/queue/items/${escalated}`)).text).not.toContain("/reply");
    expect(outcomeOf(await ana.request(`/queue/items/${escalated}/reply`))).toBe("reply_no_recipient");
    expect(outcomeOf(await reply(ana, escalated, { text: "hi" }))).toBe("reply_no_recipient");
    const unknown = await ana.request("/queue/items/999999/reply", {
      form: { csrf: Browser.csrfOf((await ana.request("/queue/")).text), text: "hi" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain("999999");
    const forged = await ana.request(`/queue/items/${id}/reply`, { form: { csrf: "forged", text: "hi" } });
    expect(forged.status).toBe(403);
    const page = await ana.request(`/queue/items/${id}`);
    await ana.request(`/queue/items/${id}/reject`, { form: { csrf: Browser.csrfOf(page.text), note: "no" } });
    expect(outcomeOf(await reply(ana, id, { text: "hi" }))).toBe("reply_closed");
    expect(rig.transport.sent).toHaveLength(0);
    expect(await replies(rig)).toHaveLength(0);
  });

  it("sends one of two replies racing on one item, and the other is told the item was closed", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const ben = await signedIn(rig, "ben");
    const [a, b] = await Promise.all([
      reply(ana, id, { text: "From Ana." }),
      reply(ben, id, { text: "From Ben." }),
    ]);
    expect([outcomeOf(a), outcomeOf(b)].sort()).toEqual(["replied", "reply_closed"]);
    expect(rig.transport.sent).toHaveLength(1);
  });
});

describe("a person's own reply, off (the default)", () => {
  const setup = useWorkspace();

  it("answers 404 for the reply page and action, and offers no link", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const page = await ana.request(`/queue/items/${id}`);
    expect(page.text).not.toContain(`/items/${id}/reply`);
    expect((await ana.request(`/queue/items/${id}/reply`)).status).toBe(404);
    const posted = await ana.request(`/queue/items/${id}/reply`, {
      form: { csrf: Browser.csrfOf(page.text), text: "hi" },
    });
    expect(posted.status).toBe(404);
    expect(rig.transport.sent).toHaveLength(0);
    expect((await rig.outbox.queue.get(id))?.status).toBe("open");
  });
});

describe("sendPersonReply on the outbox", () => {
  const setup = useWorkspace();

  it("refuses a queue item id of another store, and a name that is no name, without throwing", async () => {
    const { rig } = setup;
    await populate(rig);
    expect(
      await rig.outbox.sendPersonReply({ queueItemId: "q-elsewhere", text: "hi", by: "ana" }),
    ).toMatchObject({ ok: false, refusal: "not_found" });
    const id = await populate(rig, "T-3");
    expect(await rig.outbox.sendPersonReply({ queueItemId: id, text: "hi", by: "\u202E" })).toMatchObject({
      ok: false,
      refusal: "actor_invalid",
      message: expect.stringContaining("readable name"),
    });
    expect(rig.transport.sent).toHaveLength(0);
  });
});

describe("sendPersonReply in shadow mode and when the transport fails", () => {
  async function queued(outbox: ReturnType<typeof createOutbox>): Promise<string> {
    const result = await outbox.handle({ ticketId: "T-1", runId: "run-1", output: refundProposal("T-1") });
    if (result.queueItemId === undefined) throw new Error("fixture: the refund was not queued");
    return result.queueItemId;
  }

  it("records a reply in shadow mode and delivers nothing", async () => {
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog: shopCatalog,
      load: shopTicket,
      store: memoryStore(),
      transports: { email: transport },
      mode: "shadow",
    });
    const id = await queued(outbox);
    const result = await outbox.sendPersonReply({ queueItemId: id, text: "Hello.", by: "ana" });
    expect(result).toMatchObject({ ok: true, sentNow: true, outbound: { status: "shadow" } });
    expect(transport.sent).toHaveLength(0);
    await outbox.close();
  });

  it("refuses a reply to a destination suppressed since the draft, and sends nothing", async () => {
    const transport = memoryTransport();
    const contactKey = "contact-key-0123456789-abcdefghijklmnopq";
    const store = memoryStore();
    const outbox = createOutbox({
      catalog: shopCatalog,
      load: shopTicket,
      store,
      transports: { email: transport },
      contactKey,
    });
    const id = await queued(outbox);
    const draft = (await outbox.queue.get(id))?.draft;
    if (draft === undefined) throw new Error("fixture: no draft");
    await store.transaction((tx) =>
      tx.addSuppression({
        destination: destinationHash(contactKey, draft),
        channel: "email",
        cause: "hard_bounce",
        provider: "test",
        at: 1,
        auditId: "1",
      }),
    );
    const result = await outbox.sendPersonReply({ queueItemId: id, text: "Hello.", by: "ana" });
    expect(result).toMatchObject({
      ok: false,
      refusal: "suppressed",
      message: expect.stringContaining("lift"),
    });
    expect(transport.sent).toHaveLength(0);
    expect((await outbox.queue.get(id))?.status).toBe("open");
    await outbox.close();
  });

  it("hands a reply the transport refused to a person as a failed delivery, and never sends it twice", async () => {
    let calls = 0;
    const outbox = createOutbox({
      catalog: shopCatalog,
      load: shopTicket,
      store: memoryStore(),
      transports: {
        email: {
          name: "down",
          deliver: async () => {
            calls += 1;
            throw new Error("the provider is down");
          },
        },
      },
      retry: { attempts: 1 },
    });
    const id = await queued(outbox);
    const result = await outbox.sendPersonReply({ queueItemId: id, text: "Hello.", by: "ana" });
    expect(result).toMatchObject({ ok: true, sentNow: true, outbound: { status: "failed" } });
    const failed = await outbox.queue.list({ reason: "delivery_failed" });
    expect(failed.items.map((item) => item.draft?.text)).toEqual(["Hello."]);
    const again = await outbox.sendPersonReply({ queueItemId: id, text: "Hello.", by: "ana" });
    expect(again).toMatchObject({ ok: true, sentNow: false });
    expect(calls).toBe(1);
    await outbox.close();
  });
});
