import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/decision/decision.js";
import { type SlackTransportOptions, slackTransport } from "../../src/providers/index.js";
import { key, smsMessage } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import { closedPort, creationFailure, deliveryFailure, expectMapped } from "./shared-cases.js";

const token = "xoxb-1234-5678-abcdefghijkl";
const ts = "1700000000.000100";
const loopback = useLoopback(json(200, { ok: true, channel: "C0123ABCD", ts, message: { text: "" } }));

function transport(overrides: Partial<SlackTransportOptions> = {}) {
  return slackTransport({ token, slackApiUrl: `http://127.0.0.1:${loopback().port}/api/`, ...overrides });
}

function chatMessage(overrides: Partial<Message> = {}): Message {
  return {
    template: "partner_update",
    channel: "chat",
    to: "C0123ABCD",
    text: "Order 4471-2290 shipped on 2 Mar 2026.",
    ...overrides,
  };
}

function form(body: string | undefined) {
  return Object.fromEntries(new URLSearchParams(body ?? ""));
}

// Slack's documented error answer: 200 with { ok: false, error }.
function slackError(error: string): Reply {
  return json(200, { ok: false, error });
}

function failure(reply: Reply, options: Partial<SlackTransportOptions> = {}) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options), chatMessage());
}

describe("slackTransport against Slack's documented chat.postMessage", () => {
  it("POSTs the text to chat.postMessage with the bearer token, markdown and previews off, and returns channel:ts", async () => {
    expect(await transport().deliver(chatMessage(), { key, attempt: 1 })).toEqual({ id: `C0123ABCD:${ts}` });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/chat.postMessage");
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(form(request?.body)).toEqual({
      channel: "C0123ABCD",
      text: "Order 4471-2290 shipped on 2 Mar 2026.",
      mrkdwn: "false",
      parse: "none",
      link_names: "false",
      unfurl_links: "false",
      unfurl_media: "false",
    });
  });

  it("escapes what Slack would read as a mention, a link or an entity, so every character shows as it is", async () => {
    const text = "Hi <!channel> <@U999> see <https://evil.example|your order> &amp; *bold* 1 < 2 > 0";
    await transport().deliver(chatMessage({ text, subject: "Update" }), { key, attempt: 1 });
    const sent = form(loopback().received[0]?.body).text ?? "";
    expect(sent).toBe(
      "Update\n\nHi &lt;!channel&gt; &lt;@U999&gt; see &lt;https://evil.example|your order&gt; &amp;amp; *bold* 1 &lt; 2 &gt; 0",
    );
    expect(sent).not.toMatch(/[<>]/);
  });

  it.each([
    ["a recipient with a line break", chatMessage({ to: "C0123ABCD\r\ntext=x" })],
    ["a channel name instead of an id", chatMessage({ to: "#general" })],
    ["an e-mail address", chatMessage({ to: "ada@example.org" })],
    ["a text Slack would truncate", chatMessage({ text: "<".repeat(10_001) })],
    ["an SMS", smsMessage()],
  ])("refuses %s without a request, permanently", async (_name, message) => {
    expectMapped(await deliveryFailure(transport(), message), "slack", "invalid_request", false);
    expect(loopback().received).toHaveLength(0);
  });

  const cases: readonly [string, string, boolean][] = [
    ["channel_not_found", "recipient_invalid", false],
    ["not_in_channel", "recipient_invalid", false],
    ["user_not_found", "recipient_invalid", false],
    ["is_archived", "recipient_inactive", false],
    ["invalid_auth", "auth_failed", false],
    ["not_authed", "auth_failed", false],
    ["token_revoked", "auth_failed", false],
    ["missing_scope", "auth_failed", false],
    ["restricted_action", "account_blocked", false],
    ["msg_too_long", "invalid_request", false],
    ["ratelimited", "rate_limited", true],
    ["internal_error", "server_error", true],
    ["service_unavailable", "server_error", true],
  ];

  it.each(cases)("maps error %s", async (name, reason, retryable) => {
    const error = await failure(slackError(name));
    expectMapped(error, "slack", reason, retryable);
    expect(error.providerCode).toBe(name);
  });

  it("maps a 429 with Retry-After as rate limited, sent once", async () => {
    expectMapped(
      await failure({ status: 429, body: "", headers: { "retry-after": "30" } }),
      "slack",
      "rate_limited",
      true,
    );
    expect(loopback().received).toHaveLength(1);
  });

  it("maps a 503 that is not JSON as a server error, sent once", async () => {
    expectMapped(await failure({ status: 503, body: "<html>down</html>" }), "slack", "server_error", true);
    expect(loopback().received).toHaveLength(1);
  });

  it.each([
    ["not JSON", { status: 200, body: "<html>OK</html>" }],
    ["without a ts", json(200, { ok: true })],
  ])("hands a 200 %s to a person: the message may have been posted", async (_name, reply) => {
    expectMapped(await failure(reply), "slack", "unconfirmed", false);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", { timeoutMs: 150 }), "slack", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const slackApiUrl = `http://127.0.0.1:${await closedPort()}/api/`;
    expectMapped(await deliveryFailure(transport({ slackApiUrl }), chatMessage()), "slack", "network", true);
  });

  it.each([
    ["an empty token", { token: " " }, /token is empty/],
    ["a token that is not Slack's", { token: "ghp_abc" }, /token is not a Slack token/],
    ["a token with a line break", { token: "xoxb-1\r\nX-Evil: 1" }, /token is not a Slack token/],
    ["a timeout of 0", { timeoutMs: 0 }, /timeoutMs must be a whole number/],
  ])("fails at creation on %s, naming the fix", (_name, overrides, pattern) => {
    expect(creationFailure(() => transport(overrides))).toMatch(pattern);
  });
});
