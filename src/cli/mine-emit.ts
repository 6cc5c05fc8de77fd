import { dirname, extname, relative, sep } from "node:path";
import {
  type CatalogDraft,
  type DraftRefSlot,
  type DraftTemplate,
  linkDescription,
  recipientFormat,
} from "../mine/draft.js";
import { formatSource } from "../mine/draft-formats.js";

/** Where the emitted catalog finds the records definition. */
export interface RecordsImport {
  /** The records module, absolute. */
  readonly file: string;
  /** The export the definition was found under ("default" for a default export). */
  readonly exportName: string;
}

/**
 * A string literal for generated TypeScript. JSON's escaping covers quotes, backslashes and control
 * characters; U+2028/U+2029 and every other character outside printable ASCII are escaped too, so no
 * text can end the literal, start a comment or hide code behind a bidi override.
 */
export function literal(text: string): string {
  return JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** The import specifier of `target` from a file at `from`: relative, with the extension Node resolves. */
function specifier(from: string, target: string): string {
  let path = relative(dirname(from), target).split(sep).join("/");
  const extension = extname(path);
  const emitted = { ".ts": ".js", ".tsx": ".js", ".mts": ".mjs", ".cts": ".cjs" }[extension];
  if (emitted !== undefined) path = path.slice(0, -extension.length) + emitted;
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The source of a catalog module: one `defineTemplate` per drafted template and `catalog`, built with
 * `createCatalog` over the records definition imported from its module. Every text is a string literal
 * escaped with {@link literal}; names are those the draft already checked against the naming rules.
 */
export function emitCatalog(
  draft: CatalogDraft,
  records: RecordsImport,
  emitFile: string,
  source: { readonly history: string },
): string {
  const from = literal(specifier(emitFile, records.file));
  const recordsImport =
    records.exportName === "default"
      ? `import records from ${from};`
      : records.exportName === "records"
        ? `import { records } from ${from};`
        : `import { ${identifier.test(records.exportName) ? records.exportName : literal(records.exportName)} as records } from ${from};`;
  const usesFormat = draft.templates.some(
    (template) =>
      template.to.as !== undefined ||
      template.slots.some(
        (slot) => slot.kind === "ref" && Object.values(slot.show).some((shown) => shown.as !== undefined),
      ),
  );
  const leftOut = draft.leftOut.map(
    (entry) =>
      ` * - cluster ${entry.cluster}: ${entry.reason.replace(/\*\//g, "* /").replace(/[^\x20-\x7e]/g, " ")}`,
  );
  return `/**
 * A starting catalog mined from ${commentSafe(source.history)} by \`formletter mine\`: one template per
 * cluster of past messages, biggest first. Each text is the words most of the cluster's messages
 * shared; each slot a record field their values came from, or the words that varied between them.
 * An address, number, URL or id the messages held that no record holds is never written here: each
 * was left out, and the mining report lists it by cluster.
 * Read every description, text, choice and limit before shipping: they are a draft of what was sent.
${leftOut.length > 0 ? ` *\n * Clusters left out:\n${leftOut.join("\n")}\n` : ""} */
import { createCatalog, defineTemplate${usesFormat ? ", format" : ""} } from "formletter";
${recordsImport}

const { slot } = records;

export const templates = [
${draft.templates.map(templateSource).join(",\n")}
];

export const catalog = createCatalog(records, templates);
export default catalog;
`;
}

function templateSource(template: DraftTemplate): string {
  const indent = "      ";
  const slots = template.slots.map((slot) => {
    if (slot.kind === "ref") {
      const show = Object.entries(slot.show)
        .map(([alias, shown]) => `${literal(alias)}: ${shownSource(shown)}`)
        .join(", ");
      const link = slot.link
        ? [
            `${indent}// Shows nothing: it joins the records around it (the section in the body is empty). Left out,`,
            `${indent}// it is the one record the joins allow; given as none, the joins fail and the message escalates.`,
          ]
        : slot.unjoined
          ? [
              `${indent}// Review: no key the history's records share joins this record to the others, so the model`,
              `${indent}// chooses which of the ticket's ${commentSafe(slot.collection)} it is. Join it with a \`match\` if one belongs.`,
            ]
          : [];
      const options = [
        `show: { ${show} }`,
        ...(slot.match === undefined ? [] : [`match: ${matchSource(slot.match)}`]),
        ...(slot.link ? ["optional: true", `description: ${literal(linkDescription(slot.collection))}`] : []),
      ];
      return [
        ...link,
        `${indent}${slot.name}: slot.ref(${literal(slot.collection)}, { ${options.join(", ")} }),`,
      ].join("\n");
    }
    const choices = Object.entries(slot.choices)
      .map(([key, label]) => `${indent}  ${literal(key)}: ${literal(label)},`)
      .join("\n");
    return `${indent}${slot.name}: slot.choice({\n${choices}\n${indent}}),`;
  });
  const to = recipientFormat(template);
  const as = to === undefined ? "" : `, as: ${to === "email" ? "format.email()" : formatSource(to, literal)}`;
  const match = template.to.match === undefined ? "" : `, match: ${matchSource(template.to.match)}`;
  const recipient: string[] =
    template.to.choice === "not-joined"
      ? [
          "    // Review: no key the history's records share joins the recipient to the other records, so the",
          "    // model chooses among this ticket's recipients (declared below). Join it with a `match` (or a",
          "    // `where`) that names the one, then remove the declaration.",
        ]
      : template.to.choice === "several-fit"
        ? [
            "    // Review: the join leaves several recipients in a ticket (the field it is on repeats between",
            "    // them), so the model chooses among those (declared below). Narrow it with a `match` on a",
            "    // unique field or a `where`, then remove the declaration.",
          ]
        : [];
  if (to !== undefined && to !== "email" && to.kind === "phone" && to.defaultCountry === undefined) {
    recipient.push(
      "    // Review: no number in the records names its country with a +, so numbers written without one",
      "    // cannot be read: give format.phone a defaultCountry (or mine again with --country).",
    );
  }
  const lines = [
    `  // Cluster ${template.cluster}: ${template.size} messages.${template.identifiersLeftOut === 0 ? "" : ` ${template.identifiersLeftOut} identifier(s) seen in them left out (see the mining report).`}`,
    "  defineTemplate(records, {",
    `    id: ${literal(template.id)},`,
    `    description: ${literal(template.description)},`,
    `    audience: ${literal(template.audience)},`,
    `    channel: ${literal(template.channel)},`,
    ...recipient,
    `    to: slot.ref(${literal(template.to.collection)}, { show: ${literal(template.to.field)}${as}${match} }),`,
    ...(template.to.choice === undefined ? [] : ['    recipient: "model-chooses",']),
    ...(template.subject === undefined ? [] : [`    subject: ${literal(template.subject)},`]),
    `    body: ${literal(template.body)},`,
    ...(slots.length === 0 ? [] : ["    slots: {", ...slots, "    },"]),
    `    limits: { perTicket: ${template.limits.perTicket}, perDay: ${template.limits.perDay} },`,
    ...effectSource(template),
    ...(template.maxSegments === undefined ? [] : [`    maxSegments: ${template.maxSegments},`]),
    "  })",
  ];
  return lines.join("\n");
}

function shownSource(shown: DraftRefSlot["show"][string]): string {
  if (shown.as === undefined) return literal(shown.field);
  return `{ field: ${literal(shown.field)}, as: ${formatSource(shown.as, literal)} }`;
}

function matchSource(match: Readonly<Record<string, string>>): string {
  const entries = Object.entries(match).map(([field, path]) => `${literal(field)}: ${literal(path)}`);
  return `{ ${entries.join(", ")} }`;
}

/** The effect as declared, with why and what to review: the same `configOf` gives `defineTemplate`. */
function effectSource(template: DraftTemplate): string[] {
  const { effect } = template;
  if (effect.effect === "informational") {
    return [
      '    // Review: drafted "informational" as its messages name no money, refund, cancellation, payment or',
      '    // authorisation. "reversible" if a message starts something that can be called back; "irreversible"',
      '    // (with approval: "human") if it cannot. History shows what was said, not what it caused.',
      '    effect: "informational",',
    ];
  }
  const why = [
    ...(effect.because.money ? ["it shows an amount of money"] : []),
    ...(effect.because.actions.length > 0
      ? [`its messages speak of ${effect.because.actions.join(", ")}`]
      : []),
  ].join(" and ");
  return [
    '    // Review: drafted "irreversible" with a person\'s approval because',
    `    // ${why}. Keep it so if a message moves money or starts`,
    "    // what cannot be called back; lower it only when it does neither.",
    '    effect: "irreversible",',
    '    approval: "human",',
  ];
}

/** A file name for a comment: printable ASCII, and never the end of the comment. */
function commentSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").replace(/\*\//g, "*?");
}
