import { describe, expect, it } from "vitest";
import { editedNotes, populate, signedIn, useWorkspace } from "./rig.js";

/** Text between two markers of a page. */
const between = (html: string, from: string, to: string) =>
  html.slice(html.indexOf(from), html.indexOf(to, html.indexOf(from)));

describe("an item", () => {
  const setup = useWorkspace();

  it("shows the ticket, the reason, the proposal, the draft as stored, each slot's record and label", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const item = await rig.outbox.queue.get(id);
    const page = (await (await signedIn(rig)).request(`/queue/items/${id}`)).text;
    expect(page).toContain("<dt>ticket</dt><dd>T-1</dd>");
    expect(page).toContain("<code>approval_required</code>");
    expect(page).toContain("<dt>tags</dt><dd>category=refund</dd>");
    // The proposal as parsed: the template and the handles chosen.
    expect(page).toContain("&quot;template&quot;: &quot;refund_notice&quot;");
    // The draft exactly as stored, escaped once: the text reads back as the stored bytes.
    const draft = item?.draft;
    if (draft === undefined) throw new Error("no draft");
    expect(page).toContain(`<dt>to</dt><dd>${draft.to}</dd>`);
    const shown = between(page, '<pre class="draft-text">', "</pre>").slice(
      '<pre class="draft-text">'.length,
    );
    expect(htmlText(shown)).toBe(draft.text);
    // HTML in a frame with every sandbox restriction, given as srcdoc, and as source.
    expect(page).toMatch(
      /<iframe class="draft" sandbox="" referrerpolicy="no-referrer" title="[^"]+" srcdoc="[^"]*&lt;p&gt;Hello/,
    );
    // Each slot: the record it came from (as the ticket's records are now) and the field's label.
    expect(page).toMatch(
      /<code>order<\/code><\/th><td>ref<\/td><td><code>[a-z0-9-]+<\/code><\/td><td>orders record O-T-1 \(order N-T-1\)<\/td><td>number<\/td><td>N-T-1<\/td>/,
    );
    expect(page).toMatch(/<code>to<\/code>.*customers record C-T-1/);
  });

  it("shows the template and catalog versions the item was decided under", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const item = await rig.outbox.queue.get(id);
    const template = rig.outbox.catalog.template(item?.template ?? "");
    expect(item?.decidedUnder.templateVersion).toBe(template?.version);
    const page = (await (await signedIn(rig)).request(`/queue/items/${id}`)).text;
    expect(page).toContain(
      `<dt>decided under</dt><dd>template version ${template?.version} · catalog version ${rig.outbox.catalog.version}</dd>`,
    );
  });

  it("writes every record value, note and name as text: no markup from the store reaches the page", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    await rig.outbox.queue.claim(id, { by: `<img src=x onerror="window.__pwned=3">` });
    for (const path of [`/queue/items/${id}`, "/queue/items/1", "/queue/"]) {
      const page = (await (await signedIn(rig, `<b onmouseover="x()">ana</b>`)).request(path)).text;
      // Outside the one script the page carries (nonce'd), no script element and no event handler.
      expect(page.match(/<script/g)).toHaveLength(1);
      expect(page).not.toMatch(/<img|<b onmouseover/);
      expect(page).not.toMatch(/\son[a-z]+="/);
    }
  });

  it.each([
    ["an id no item has", "/queue/items/999999"],
    ["markup", "/queue/items/%3Cscript%3E"],
    ["a path", "/queue/items/..%2F..%2Fetc%2Fpasswd"],
    ["an over-long id", `/queue/items/${"9".repeat(300)}`],
  ])("answers 404 without detail for %s", async (_name, path) => {
    const { rig } = setup;
    await populate(rig);
    const answer = await (await signedIn(rig)).request(path);
    expect(answer.status).toBe(404);
    expect(answer.text).toContain("No such page or item.");
    expect(answer.text).not.toContain("script&gt;");
  });

  it("shows a draft as decided even when the ticket's records changed since", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const before = (await rig.outbox.queue.get(id))?.draft?.text ?? "";
    // The loader now answers other records for the same ticket: the page must not render them into the draft.
    editedNotes.set("T-1", "edited after the decision");
    const page = (await (await signedIn(rig)).request(`/queue/items/${id}`)).text;
    editedNotes.clear();
    expect(
      htmlText(between(page, '<pre class="draft-text">', "</pre>").slice('<pre class="draft-text">'.length)),
    ).toBe(before);
    expect(page).not.toContain("edited after the decision");
  });
});

function htmlText(html: string): string {
  return html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
