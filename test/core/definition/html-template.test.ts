import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DefinitionError, defineTemplate, format, type TemplateConfig } from "../../../src/index.js";
import { misplacedHtmlValues } from "../../../src/testing/part-checks.js";
import { records } from "../../fixtures/clinic.js";

const { slot } = records;

/** An e-mail template whose HTML is `html`; `room` is a required slot, `note` an optional one. */
function withHtml(html: string): TemplateConfig {
  return {
    id: "visit_note",
    effect: "informational",
    description: "Tell a patient which room their visit is in",
    audience: "patient",
    channel: "email",
    to: slot.ref("patients", { show: "email", as: format.email() }),
    subject: "Your visit",
    body: "Your visit is in room {{room}}.{{#note}} {{note}}{{/note}}{{#kind.urgent}} Urgent.{{/kind.urgent}}",
    html,
    slots: {
      room: slot.ref("appointments", { show: "room" }),
      note: slot.ref("patients", { show: "name", optional: true }),
      kind: slot.choice({ urgent: "urgent", routine: "routine" }),
    },
    limits: { perTicket: 1, perDay: 10 },
  };
}

function definitionError(html: string): DefinitionError {
  let caught: unknown;
  try {
    defineTemplate(records, withHtml(html));
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${html} to be refused`).toBeInstanceOf(DefinitionError);
  return caught as DefinitionError;
}

describe("HTML templates: where a value may land", () => {
  it.each([
    ["a text node", "<p>Room {{room}} for {{kind}}</p>"],
    ["a double-quoted title", '<p title="room {{room}}">Room {{room}} {{kind}}</p>'],
    ["a single-quoted alt", "<img alt='{{room}}' width=\"1\">{{kind}}"],
    ["a data- attribute", '<table><tr><td data-room="{{room}}" class="x {{kind}}">x</td></tr></table>'],
    ["an aria-label", '<button aria-label="Room {{room}}">{{kind}}</button>'],
    [
      "a whole document",
      "<!doctype html><html><head><style>p{color:red}</style></head><body><p>{{room}} {{kind}}</p></body></html>",
    ],
    [
      "a section around markup",
      '<p>{{room}}</p>{{#note}}<div class="note"><b>{{note}}</b></div>{{/note}}{{kind}}',
    ],
    [
      "a choice section around a table row",
      "<table><tr><td>{{room}}</td></tr>{{#kind.urgent}}<tr><td>Urgent</td></tr>{{/kind.urgent}}</table>{{kind}}",
    ],
    [
      "a section inside one attribute value",
      '<p class="a {{#kind.urgent}}red{{/kind.urgent}}">{{room}} {{kind}}</p>',
    ],
    ["an inverted section", "<p>{{^note}}<i>no note</i>{{/note}}{{room}} {{kind}}</p>"],
    [
      "a link whose URL is template text",
      '<a href="https://clinic.example/visits?a=1&amp;b=2">Room {{room}}</a> {{kind}}',
    ],
    ["a mustache comment", "<p>{{! not shown }}{{room}} {{kind}}</p>"],
    ["an ampersand with a space after it", "<p>R &amp; D & {{room}} {{kind}}</p>"],
    ["an ampersand before a mustache comment", "<p>&{{! x }}amp; {{room}} {{kind}}</p>"],
  ])("accepts a value in %s", (_name, html) => {
    const template = defineTemplate(records, withHtml(html));
    expect(template.htmlText).toBeDefined();
  });

  it.each<[string, string, RegExp]>([
    ["an href", '<a href="{{room}}">x</a>{{kind}}', /href attribute of <a>/],
    ["an href after a fixed prefix", '<a href="https://clinic.example/r/{{room}}">x</a>{{kind}}', /href/],
    ["a src", '<img src="{{room}}">{{kind}}', /src attribute of <img>/],
    ["a srcset", '<img srcset="{{room}} 2x">{{kind}}', /srcset/],
    ["a style attribute", '<p style="color: {{room}}">x</p>{{kind}}', /style attribute/],
    ["an event handler", "<p onclick=\"go('{{room}}')\">x</p>{{kind}}", /onclick attribute/],
    ["an upper-case event handler", '<p ONMOUSEOVER="{{room}}">x</p>{{kind}}', /onmouseover/],
    ["a form action", '<form action="{{room}}"></form>{{kind}}', /action/],
    ["a formaction", '<button formaction="{{room}}">x</button>{{kind}}', /formaction/],
    ["a poster", '<video poster="{{room}}"></video>{{kind}}', /poster/],
    ["a background", '<table background="{{room}}"><tr><td>x</td></tr></table>{{kind}}', /background/],
    ["a cite", '<blockquote cite="{{room}}">x</blockquote>{{kind}}', /cite/],
    ["an object's data", '<object data="{{room}}"></object>{{kind}}', /data attribute/],
    ["a data-src", '<img data-src="{{room}}" alt="">{{kind}}', /data-src/],
    ["a meta refresh", '<meta http-equiv="refresh" content="0;url={{room}}">{{kind}}', /meta/],
    ["a base href", '<base target="{{room}}">{{kind}}', /base/],
    ["an unquoted attribute", "<p title={{room}}>x</p>{{kind}}", /unquoted/],
    ["an attribute name", "<p {{room}}>x</p>{{kind}}", /attribute name/],
    ["an attribute name with a value", '<p data-{{room}}="x">x</p>{{kind}}', /attribute name/],
    ["a tag name", "<{{room}}>x{{kind}}", /tag name/],
    ["a tag name suffix", "<h{{room}}>x</h1>{{kind}}", /tag name/],
    ["an end tag", "<p>x</p{{room}}>{{kind}}", /drops it|tag name|attribute name/],
    ["a comment", "<!-- {{room}} --><p>{{kind}}</p>", /comment/],
    ["a conditional comment", "<!--[if mso]><p>{{room}}</p><![endif]--><p>{{kind}}</p>", /comment/],
    ["a bogus comment", "<?xml {{room}}?><p>{{kind}}</p>", /comment/],
    ["a doctype", "<!doctype {{room}}><p>{{kind}}</p>", /doctype/],
    ["a script", "<script>var room = '{{room}}';</script>{{kind}}", /<script>/],
    ["a style element", "<style>.{{room}} { color: red }</style>{{kind}}", /<style>/],
    ["a textarea", "<textarea>{{room}}</textarea>{{kind}}", /<textarea>/],
    ["a title", "<title>{{room}}</title><p>{{kind}}</p>", /<title>/],
    ["an iframe", "<iframe>{{room}}</iframe>{{kind}}", /<iframe>/],
    ["an xmp", "<xmp>{{room}}</xmp>{{kind}}", /<xmp>/],
    ["a noscript", "<noscript>{{room}}</noscript>{{kind}}", /<noscript>/],
    ["a noembed", "<noembed>{{room}}</noembed>{{kind}}", /<noembed>/],
    ["a noframes", "<noframes>{{room}}</noframes>{{kind}}", /<noframes>/],
    ["a template element", "<template><p>{{room}}</p></template>{{kind}}", /<template>/],
    ["an svg", "<svg><text>{{room}}</text></svg>{{kind}}", /<svg>/],
    ["an svg link", '<svg><a xlink:href="{{room}}">x</a></svg>{{kind}}', /svg|href/],
    ["a math element", "<math><mi>{{room}}</mi></math>{{kind}}", /<math>/],
    ["text after plaintext", "<plaintext><p>{{room}}</p>{{kind}}", /<plaintext>/],
    ["a script's type", '<script type="{{room}}">var x = 1;</script>{{kind}}', /type attribute of <script>/],
    ["a select", "<select><option>{{room}}</option></select>{{kind}}", /<select>/],
    [
      "a style a section's select would hide",
      "{{#kind.urgent}}<select>{{/kind.urgent}}<style>{{room}}</style>",
      /<select>|<style>/,
    ],
    ["a script opened in a section", "{{#kind.urgent}}<script>{{/kind.urgent}}{{room}}", /section|<script>/],
    ["a comment opened in a section", "{{#note}}<!--{{/note}}{{room}}{{kind}}", /section|comment/],
    ["a script spelled across a mustache comment", "<scr{{! x }}ipt>{{room}}</script>{{kind}}", /<script>/],
  ])("refuses a value in %s, naming template, slot and fix", (_name, html, says) => {
    const error = definitionError(html);
    expect(error.code).toBe("template_invalid");
    expect(error.template).toBe("visit_note");
    expect(error.message).toMatch(says);
    expect(["room", "kind", "note"]).toContain(error.slot);
    expect(error.message).toMatch(/visit_note/);
  });

  it("names the slot whose tag is misplaced", () => {
    const error = definitionError('<p>{{kind}}</p><a href="{{room}}">x</a>');
    expect(error.slot).toBe("room");
    expect(error.message).toMatch(/show the value as text/);
  });

  it.each([
    ["opens in text and closes in an attribute", '{{#note}}<p title="{{/note}}">{{room}} {{kind}}</p>'],
    [
      "opens in one attribute and closes in another",
      '<p title="{{#note}}" class="{{/note}}">{{room}} {{kind}}</p>',
    ],
    ["opens inside a tag", "<p {{#note}}hidden{{/note}}>{{room}} {{kind}}</p>"],
  ])("refuses a section that %s", (_name, html) => {
    const error = definitionError(html);
    expect(error.slot).toBe("note");
    expect(error.message).toMatch(/section|attribute name/);
  });

  it.each([
    ["an ampersand", "<p>&{{room}} {{kind}}</p>"],
    ["a numeric reference prefix", "<p>&#{{room}} {{kind}}</p>"],
    ["a named reference prefix", '<p title="&amp{{room}}">{{kind}}</p>'],
  ])("refuses %s right before a tag, which a value could complete", (_name, html) => {
    const error = definitionError(html);
    expect(error.slot).toBe("room");
    expect(error.message).toMatch(/&amp;/);
  });

  it("refuses a value the parser moves out of place", () => {
    const error = definitionError("<table><tr><td>{{kind}}</td></tr>{{room}}</table>");
    expect(error.slot).toBe("room");
    expect(error.message).toMatch(/misnested/);
  });

  it("reads the HTML as a reader sees it: entities decoded, tags gone, attribute values kept", () => {
    const template = defineTemplate(
      records,
      withHtml('<p title="R &amp; D">Room&nbsp;{{room}}</p><p>write to desk&#64;clinic.example {{kind}}</p>'),
    );
    expect(template.literal).toContain("desk@clinic.example");
    expect(template.literal).toContain("R & D");
    expect(template.literal).not.toContain("<p");
  });
});

describe("HTML templates: a template that is accepted keeps its values in text for every section choice", () => {
  // Pieces of markup chosen to open and close contexts: tags, raw-text elements, attribute quotes, comments.
  const pieces = [
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<table>",
    "<tr><td>",
    "</td></tr>",
    "</table>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<textarea>",
    "</textarea>",
    "<select>",
    "</select>",
    "<svg>",
    "</svg>",
    "<!--",
    "-->",
    '<a href="',
    '<span title="',
    "<span title='",
    '">',
    "'>",
    '"',
    "<i ",
    ">",
    "&",
    "&amp;",
    " text ",
    "=",
  ];
  type Node =
    | string
    | { readonly value: true }
    | { readonly section: "note" | "kind.urgent"; readonly inner: Node[] };
  const node: fc.Memo<Node> = fc.memo((depth) =>
    depth <= 1
      ? fc.oneof(fc.constantFrom(...pieces), fc.constant({ value: true } as const))
      : fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...pieces) },
          { weight: 2, arbitrary: fc.constant({ value: true } as const) },
          {
            weight: 2,
            arbitrary: fc.record({
              section: fc.constantFrom("note" as const, "kind.urgent" as const),
              inner: fc.array(node(depth - 1), { maxLength: 4 }),
            }),
          },
        ),
  );
  const source = (nodes: readonly Node[]): string =>
    nodes
      .map((item) =>
        typeof item === "string"
          ? item
          : "value" in item
            ? "{{room}}"
            : `{{#${item.section}}}${source(item.inner)}{{/${item.section}}}`,
      )
      .join("");

  it("either refuses the HTML at definition, or every combination of sections renders values in text", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(node(3), { minLength: 1, maxLength: 8 }), (nodes) => {
        const html = source(nodes);
        let template: ReturnType<typeof defineTemplate>;
        try {
          template = defineTemplate(records, withHtml(html));
        } catch (error) {
          expect(error).toBeInstanceOf(DefinitionError);
          return;
        }
        accepted += 1;
        for (const note of [undefined, { id: "P-1", name: "x" }]) {
          for (const kind of ["urgent", "routine"]) {
            expect(misplacedHtmlValues(template, { note, kind, room: {} }), html).toEqual([]);
          }
        }
      }),
      { numRuns: 800, seed: 20261130 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});
