import { DefinitionError } from "../errors.js";
import { type Part, type PartRole, readSchema, type SchemaRead } from "./schema-parts.js";

/**
 * The bounds of one walk over schemas. A schema the walk cannot finish within them is refused: a getter
 * or z.lazy that builds a new schema on every read makes a schema without end, and a walk that followed it
 * would never stop. Real records schemas stay far below both.
 */
export const walkLimits = {
  /** Schemas and parts read, over every collection of one definition. */
  parts: 20_000,
  /** Steps from a collection's root down to any part (wrappers count): deeper is no record a message needs. */
  depth: 256,
  /** Steps of the work done on what was read (label trees, labels carried down and gathered). */
  work: 200_000,
} as const;

export type WalkLimits = { readonly [K in keyof typeof walkLimits]: number };

/** A place in a walk: its schema's read and the step that reached it, for error messages. */
interface Step {
  readonly schema: unknown;
  readonly read: SchemaRead;
  readonly step: string;
}

/**
 * One bounded, cycle-safe walk over schemas: every walker of schemas reads them through one of these.
 * `read` visits each schema once (a map keyed by the schema itself, so a recursive schema is a cycle, not an
 * endless tree), keeps what it read, and throws a `DefinitionError` naming the place when the schema is
 * deeper or larger than `limits` allow; the walkers then go over what was read, charging their own steps to
 * `spend`. Nothing a walker does after `read` runs code of the schema again.
 */
export class SchemaWalk {
  private readonly reads = new Map<unknown, SchemaRead>();
  private readonly walked = new Set<unknown>();
  private partsRead = 0;
  private workDone = 0;

  /** `owner` names the call in messages: "defineRecords", "untrusted"… */
  constructor(
    private readonly owner: string,
    private readonly limits: WalkLimits = walkLimits,
  ) {}

  /**
   * Reads `root` and everything it holds, each schema once. `subject` names what is read in messages
   * (`collection "orders"`), `path` is the root's place (`orders`).
   */
  read(root: unknown, subject: string, path: string): void {
    // Depth-first without recursion, so a deep schema ends in this walk's error and never in a stack overflow.
    const trail: Step[] = [];
    const todo: ({ readonly schema: unknown; readonly step: string } | undefined)[] = [
      { schema: root, step: path },
    ];
    while (todo.length > 0) {
      const next = todo.pop();
      if (next === undefined) {
        trail.pop();
        continue;
      }
      // A schema read alone (`get`) before is walked still: only a walked one has had its parts read.
      if (this.walked.has(next.schema)) continue;
      this.walked.add(next.schema);
      const read = this.get(next.schema);
      trail.push({ schema: next.schema, read, step: next.step });
      if (trail.length > this.limits.depth) throw this.endless(subject, trail);
      if (this.partsRead > this.limits.parts) throw this.tooLarge(subject, trail);
      todo.push(undefined);
      for (let index = read.parts.length - 1; index >= 0; index--) {
        const part = read.parts[index] as Part;
        todo.push({ schema: part.schema, step: stepOf(part) });
      }
    }
  }

  /** What was read of `schema`; a schema not met yet is read now, alone, and counted against the bounds. */
  get(schema: unknown): SchemaRead {
    let read = this.reads.get(schema);
    if (read === undefined) {
      read = readSchema(schema);
      this.reads.set(schema, read);
      this.partsRead += 1 + read.parts.length;
    }
    return read;
  }

  /**
   * Counts `steps` of a walker's work at `depth` (how many steps of its own recursion are open) and throws
   * a `DefinitionError` past the limits. `at` is the place, for the message.
   */
  spend(subject: string, depth: number, at: string, steps = 1): void {
    this.workDone += steps;
    if (this.workDone <= this.limits.work && depth <= 2 * this.limits.depth) return;
    const bound =
      depth > 2 * this.limits.depth
        ? `${2 * this.limits.depth} levels`
        : `${this.limits.work.toLocaleString("en-US")} steps`;
    throw new DefinitionError(
      "records_definition_invalid",
      `${this.owner}: the labels of ${subject} cannot be worked out within ${bound} (stopped at ${shorten(at)}): its unions, intersections and recursive parts combine into too many places; give each recursive part one schema, referred to by every place that holds it, and keep unions of recursive parts few`,
    );
  }

  private endless(subject: string, trail: readonly Step[]): DefinitionError {
    const at = pathOf(trail);
    const repeated = repeatedBuild(trail);
    if (repeated !== undefined) {
      return new DefinitionError(
        "records_definition_invalid",
        `${this.owner}: ${subject} never ends: ${repeated} is built anew each time it is read (at ${shorten(at)}), so the schema grows as it is walked; define that schema once, outside the getter or z.lazy, and return the same schema on every call (const node = z.object({ get children() { return z.array(node) } }))`,
      );
    }
    return new DefinitionError(
      "records_definition_invalid",
      `${this.owner}: ${subject} is nested more than ${this.limits.depth} levels deep, wrappers included (at ${shorten(at)}); a record this deep is no data a message needs: flatten it, or declare the deep part as z.unknown(), or if it repeats itself refer to one schema (a getter or z.lazy returning the same schema) so that it is read once`,
    );
  }

  private tooLarge(subject: string, trail: readonly Step[]): DefinitionError {
    const at = pathOf(trail);
    return new DefinitionError(
      "records_definition_invalid",
      `${this.owner}: more than ${this.limits.parts.toLocaleString("en-US")} schemas and parts to read (stopped in ${subject}, at ${shorten(at)}), more than records a message is built from ever need; declare only the fields templates and code read (a z.looseObject keeps the rest without declaring it), or, if a getter or z.lazy builds a new schema on each read, define that schema once and return it`,
    );
  }
}

/** The step a part adds to a path: `.name` for a property, `[]` for elements and values, `{key}` for keys. */
function stepOf(part: Part): string {
  const steps: Readonly<Record<PartRole, string>> = {
    field: `.${part.name ?? ""}`,
    rest: ".*",
    item: "[]",
    key: "{key}",
    inner: "",
    in: "",
    out: "",
    option: "",
    side: "",
    computed: "",
  };
  return steps[part.role];
}

/**
 * The schema that recurs along a too-deep trail as new schemas of one form, when code made them (a getter or
 * z.lazy run on reading): "a z.object with fields name, children". Undefined when the depth is declared.
 */
function repeatedBuild(trail: readonly Step[]): string | undefined {
  const counts = new Map<string, number>();
  if (!trail.some(({ read }) => read.type === "lazy" || hasGetter(read.declared))) return undefined;
  let most: [form: string, count: number] = ["", 0];
  for (const step of trail) {
    const form = formOf(step.read);
    const count = (counts.get(form) ?? 0) + 1;
    counts.set(form, count);
    if (count > most[1]) most = [form, count];
  }
  return most[1] >= 3 ? most[0] : undefined;
}

function hasGetter(shape: object | undefined): boolean {
  if (shape === undefined) return false;
  try {
    return Object.values(Object.getOwnPropertyDescriptors(shape)).some(
      (property) => property.get !== undefined,
    );
  } catch {
    return false;
  }
}

function formOf(read: SchemaRead): string {
  if (read.type !== "object") return `a z.${read.type}`;
  const names = read.parts.flatMap((part) => (part.role === "field" ? [part.name] : []));
  return names.length === 0 ? "a z.object" : `a z.object with fields ${names.slice(0, 5).join(", ")}`;
}

function pathOf(trail: readonly Step[]): string {
  return trail.map(({ step }) => step).join("");
}

/** A path for a message: a very deep one keeps its start and its end. */
function shorten(path: string): string {
  return path.length <= 160 ? path : `${path.slice(0, 80)}…${path.slice(-60)}`;
}
