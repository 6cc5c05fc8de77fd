/**
 * Requests that carry a canary (a unique marker) in one place each, generated from the relay's own
 * OpenAPI document: every operation, each of its path and query parameters, each field, key and leaf
 * of its body (and of a rich sample where the schema says nothing), its headers and its token. A route
 * added to the relay is in the document, so it is probed without a line written here.
 */

type Json = Record<string, unknown>;

/** The document, as far as the probes read it. */
export interface Document {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { readonly schemas: Record<string, Json> };
}

interface Operation {
  readonly security?: readonly Record<string, unknown>[];
  readonly parameters?: readonly { name: string; in: "path" | "query"; schema?: Json }[];
  readonly requestBody?: { content: Record<string, { schema: Json }> };
}

/** One request, and the canary it carries. */
export interface Probe {
  /** What was put where, for the failure message. */
  readonly label: string;
  readonly canary: string;
  readonly method: string;
  /** The path with its query string, as sent (percent-encoded where it says so). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Whether the token's subject is the canary: then the fields naming the subject may hold it. */
  readonly subject?: "task" | "operator";
}

/** What the generator is given: tokens, real path values, a sample for open schemas, fresh canaries. */
export interface ProbeContext {
  /** A valid token for a security scheme of the document ("taskToken", "operatorToken"). */
  readonly token: (scheme: string) => string;
  /** A token whose subject is `canary`, for a scheme. */
  readonly subjectToken: (scheme: string, canary: string) => Promise<string>;
  /** A value of a path parameter that names something that exists (a queue item's id). */
  readonly pathValue: (name: string) => string;
  /** The value for a schema that constrains nothing (`{}`): something rich, e.g. a model's proposal. */
  readonly openSample: unknown;
  /** A new canary: letters and digits only, so no encoding changes it. */
  readonly canary: () => string;
}

/** Every character percent-encoded: the server decodes it back to the canary. */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

function resolve(document: Document, schema: Json | undefined): Json {
  const ref = schema?.$ref;
  if (typeof ref === "string") return document.components.schemas[ref.split("/").at(-1) ?? ""] ?? {};
  return schema ?? {};
}

/** A small valid value of `schema`. */
function sample(document: Document, given: Json | undefined, context: ProbeContext): unknown {
  const schema = resolve(document, given);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "x".repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(document, properties[name], context)]));
    }
    default:
      return structuredClone(context.openSample);
  }
}

type Path = readonly (string | number)[];

/** Every place in a JSON value: each leaf, and each object with its keys. */
function places(value: unknown, at: Path = []): { leaves: Path[]; objects: Path[] } {
  const found = { leaves: [] as Path[], objects: [] as Path[] };
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const inner = places(item, [...at, index]);
      found.leaves.push(...inner.leaves);
      found.objects.push(...inner.objects);
    });
  } else if (typeof value === "object" && value !== null) {
    found.objects.push(at);
    for (const [key, item] of Object.entries(value)) {
      const inner = places(item, [...at, key]);
      found.leaves.push(...inner.leaves);
      found.objects.push(...inner.objects);
    }
  } else found.leaves.push(at);
  return found;
}

/** `value` with the place at `path` changed by `change` (on a copy). */
function changed(value: unknown, path: Path, change: (parent: Json, key: string | number) => void): unknown {
  const copy = { root: structuredClone(value) } as Json;
  let parent: Json = copy;
  let key: string | number = "root";
  for (const step of path) {
    parent = parent[key] as Json;
    key = step;
  }
  change(parent, key);
  return copy.root;
}

/** Bodies that each carry a fresh canary in one place: leaves, keys, added keys, fields, records, roots. */
function bodies(
  document: Document,
  schema: Json,
  context: ProbeContext,
): { label: string; canary: string; body: string }[] {
  const base = sample(document, schema, context);
  const out: { label: string; canary: string; body: string }[] = [];
  const add = (label: string, make: (canary: string) => unknown, raw = false) => {
    const canary = context.canary();
    const made = make(canary);
    out.push({ label, canary, body: raw ? String(made) : JSON.stringify(made) });
  };
  const { leaves, objects } = places(base);
  for (const leaf of leaves)
    add(`body leaf ${leaf.join(".")}`, (canary) =>
      changed(base, leaf, (parent, key) => (parent[key] = canary)),
    );
  for (const object of objects) {
    add(`body key added at ${object.join(".") || "the root"}`, (canary) =>
      changed(base, object, (parent, key) => {
        (parent[key] as Json)[canary] = canary;
      }),
    );
    const keys = Object.keys(
      (object.reduce((value: unknown, step) => (value as Json)[step], base) ?? {}) as Json,
    );
    for (const name of keys) {
      add(`body key ${[...object, name].join(".")} renamed`, (canary) =>
        changed(base, object, (parent, key) => {
          const target = parent[key] as Json;
          target[canary] = target[name];
          delete target[name];
        }),
      );
    }
  }
  // Each declared field, and each record under one, given values of the wrong shape.
  const resolved = resolve(document, schema);
  for (const [name, field] of Object.entries((resolved.properties ?? {}) as Record<string, Json>)) {
    const withField = (value: unknown) => Object.assign(structuredClone(base) as Json, { [name]: value });
    add(`field ${name} = canary`, (canary) => withField(canary));
    add(`field ${name} = { canary: canary }`, (canary) => withField({ [canary]: canary }));
    add(`field ${name} = [canary]`, (canary) => withField([canary]));
    add(`field ${name} = canary, over any length limit`, (canary) => withField(canary.repeat(400)));
    add(`field ${name} = the open sample as text, canary in it`, (canary) =>
      withField(
        JSON.stringify(
          changed(context.openSample, places(context.openSample).leaves[0] ?? [], (p, k) => (p[k] = canary)),
        ),
      ),
    );
    if (typeof field.additionalProperties === "object") {
      add(`field ${name}: a record key too long`, (canary) => withField({ [canary.repeat(10)]: "v" }));
      add(`field ${name}: a record value of the wrong type`, (canary) => withField({ [canary]: 1 }));
      add(`field ${name}: a record value too long`, (canary) => withField({ [canary]: canary.repeat(100) }));
      add(`field ${name}: too many record entries`, (canary) =>
        withField(Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`${canary}${index}`, "v"]))),
      );
    }
  }
  add("the body a JSON string", (canary) => canary);
  add("the body a JSON array", (canary) => [canary]);
  add("the body not JSON", (canary) => `{"${canary}`, true);
  add("the body bare text", (canary) => canary, true);
  return out;
}

/** Every probe of the document. */
export async function probesOf(document: Document, context: ProbeContext): Promise<Probe[]> {
  const probes: Probe[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [lower, operation] of Object.entries(item)) {
      const method = lower.toUpperCase();
      const scheme = Object.keys(operation.security?.[0] ?? {})[0];
      const parameters = operation.parameters ?? [];
      const pathOf = (values: Record<string, string>) =>
        template.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? context.pathValue(name));
      const bodySchema = operation.requestBody?.content["application/json"]?.schema;
      const baseBody =
        bodySchema === undefined ? undefined : JSON.stringify(sample(document, bodySchema, context));
      const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
        ...(scheme === undefined ? {} : { authorization: `Bearer ${context.token(scheme)}` }),
        ...(baseBody === undefined ? {} : { "content-type": "application/json" }),
        ...extra,
      });
      const push = (label: string, canary: string, probe: Partial<Probe>) =>
        probes.push({
          label: `${method} ${template}: ${label}`,
          canary,
          method,
          path: pathOf({}),
          headers: headers(),
          ...(baseBody === undefined ? {} : { body: baseBody }),
          ...probe,
        });

      for (const parameter of parameters.filter((p) => p.in === "path")) {
        const shapes: [string, (canary: string) => string][] = [
          ["as is", (canary) => canary],
          ["percent-encoded", percentEncoded],
          ["around an encoded slash", (canary) => `${canary}%2F${canary}`],
          ["before an encoded NUL and a bidi override", (canary) => `${canary}%00%E2%80%AE`],
          ["after a malformed escape", (canary) => `%ZZ${canary}`],
        ];
        for (const [shape, make] of shapes) {
          const canary = context.canary();
          push(`path parameter ${parameter.name} ${shape}`, canary, {
            path: pathOf({ [parameter.name]: make(canary) }),
          });
        }
      }
      for (const parameter of parameters.filter((p) => p.in === "query")) {
        for (const [shape, make] of [
          ["as is", (canary: string) => canary],
          ["percent-encoded", percentEncoded],
        ] as const) {
          const canary = context.canary();
          push(`query parameter ${parameter.name} ${shape}`, canary, {
            path: `${pathOf({})}?${parameter.name}=${make(canary)}`,
          });
        }
      }
      {
        const canary = context.canary();
        push("an undeclared query parameter", canary, { path: `${pathOf({})}?${canary}=${canary}` });
      }
      const headerShapes: [string, (canary: string) => Record<string, string>][] = [
        ["a header of its own", (canary) => ({ [`x-${canary}`]: canary })],
        ["Accept", (canary) => ({ accept: `application/${canary}` })],
        ["Authorization: a bare canary", (canary) => ({ authorization: `Bearer ${canary}` })],
        [
          "Authorization: a canary in three parts",
          (canary) => ({ authorization: `Bearer ${canary}.${canary}.${canary}` }),
        ],
        ["Authorization: another scheme", (canary) => ({ authorization: `${canary} x` })],
        ...(scheme === undefined
          ? []
          : ([
              [
                "Authorization: the token with a canary after it",
                (canary) => ({ authorization: `Bearer ${context.token(scheme)}${canary}` }),
              ],
            ] as [string, (canary: string) => Record<string, string>][])),
        ...(baseBody === undefined
          ? []
          : ([
              [
                "Content-Type: a charset",
                (canary) => ({ "content-type": `application/json; charset=${canary}` }),
              ],
              [
                "Content-Type: a parameter",
                (canary) => ({ "content-type": `application/json; ${canary}=1` }),
              ],
              ["Content-Type: a type", (canary) => ({ "content-type": `application/${canary}` })],
            ] as [string, (canary: string) => Record<string, string>][])),
      ];
      for (const [shape, make] of headerShapes) {
        const canary = context.canary();
        push(`header ${shape}`, canary, { headers: headers(make(canary)) });
      }
      if (scheme !== undefined) {
        const canary = context.canary();
        const token = await context.subjectToken(scheme, canary);
        push("the token's subject", canary, {
          headers: headers({ authorization: `Bearer ${token}` }),
          subject: scheme === "taskToken" ? "task" : "operator",
        });
      }
      if (bodySchema !== undefined) {
        for (const made of bodies(document, bodySchema, context))
          push(made.label, made.canary, { body: made.body });
      }
    }
  }
  return probes;
}
