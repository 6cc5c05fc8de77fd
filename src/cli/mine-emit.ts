import { dirname, extname, relative, sep } from "node:path";
import type { CatalogDraft, DraftRefSlot, DraftTemplate } from "../mine/draft.js";

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
      return `${indent}${slot.name}: slot.ref(${literal(slot.collection)}, { show: { ${show} } }),`;
    }
    const choices = Object.entries(slot.choices)
      .map(([key, label]) => `${indent}  ${literal(key)}: ${literal(label)},`)
      .join("\n");
    return `${indent}${slot.name}: slot.choice({\n${choices}\n${indent}}),`;
  });
  const as = template.to.as === undefined ? "" : `, as: format.${template.to.as}()`;
  const lines = [
    `  // Cluster ${template.cluster}: ${template.size} messages.${template.identifiersLeftOut === 0 ? "" : ` ${template.identifiersLeftOut} identifier(s) seen in them left out (see the mining report).`}`,
    "  defineTemplate(records, {",
    `    id: ${literal(template.id)},`,
    `    description: ${literal(template.description)},`,
    `    audience: ${literal(template.audience)},`,
    `    channel: ${literal(template.channel)},`,
    `    to: slot.ref(${literal(template.to.collection)}, { show: ${literal(template.to.field)}${as} }),`,
    ...(template.subject === undefined ? [] : [`    subject: ${literal(template.subject)},`]),
    `    body: ${literal(template.body)},`,
    ...(slots.length === 0 ? [] : ["    slots: {", ...slots, "    },"]),
    `    limits: { perTicket: ${template.limits.perTicket}, perDay: ${template.limits.perDay} },`,
    '    // Review: "reversible" if a message starts something that can be called back; "irreversible"',
    '    // (with approval: "human") if it cannot. History shows what was said, not what it caused.',
    '    effect: "informational",',
    ...(template.maxSegments === undefined ? [] : [`    maxSegments: ${template.maxSegments},`]),
    "  })",
  ];
  return lines.join("\n");
}

function shownSource(shown: DraftRefSlot["show"][string]): string {
  if (shown.as === undefined) return literal(shown.field);
  const as =
    shown.as.kind === "money"
      ? `format.money({ currencyField: ${literal(shown.as.currencyField)} })`
      : "format.number()";
  return `{ field: ${literal(shown.field)}, as: ${as} }`;
}

/** A file name for a comment: printable ASCII, and never the end of the comment. */
function commentSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").replace(/\*\//g, "*?");
}
