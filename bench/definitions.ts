/**
 * defineRecords and defineTemplate on schemas built to make a walk over them hang: recursive schemas, schemas
 * that grow as they are read, very deep, very wide and combinatorial ones. Each ends in a catalog or a
 * DefinitionError within the walk's budget; this prints how long that took (CPU and wall clock) and the bytes
 * it allocated, per shape. The schemas are built before the clock starts: only the definition is measured.
 */
import { DefinitionError, defineRecords, defineTemplate, untrusted } from "formletter";
import { z } from "zod";
import { growingLazy, growingObject, nested } from "../test/fixtures/schema-shapes.js";
import { bytesAllocated, report } from "./measure.js";

const id = z.string();
type Collections = Record<string, z.ZodType>;

/** Recursive unions whose objects' catchalls mix every branch into new places. */
function mixingUnions(size: number): z.ZodType {
  const parts: z.ZodType[] = [];
  const at = (index: number) => z.lazy(() => parts[index % size] as z.ZodType);
  for (let index = 0; index < size; index++) {
    const shape: Record<string, z.ZodType> = {};
    for (let field = 0; field < size; field++) shape[`f${field}`] = at(index + field + 1);
    if (index === size - 1) shape.note = untrusted("buyer", z.string());
    const branch = z.object({ [`f${index}`]: at(index * 3 + 1) }).catchall(at(index + 2));
    parts.push(z.union([z.object(shape), branch]));
  }
  return parts[0] as z.ZodType;
}

/** One cycle through `chains` chains of `length` objects each, with the buyer's text at the root. */
function longCycle(chains: number, length: number): z.ZodType {
  const ends: z.ZodType[] = [];
  const root: z.ZodType = z.object({
    note: untrusted("buyer", z.string()),
    get branches() {
      return z.array(z.union(ends as [z.ZodType, ...z.ZodType[]]));
    },
  });
  for (let chain = 0; chain < chains; chain++) {
    ends.push(
      nested(length, (_inner, level) => z.object({ [`c${chain}l${level}`]: level === 0 ? root : _inner })),
    );
  }
  return root;
}

const shapes: [string, () => Collections][] = [
  ["z.json()", () => ({ nodes: z.object({ id, data: untrusted("buyer", z.json()) }) })],
  [
    "a getter that builds a new object on each call",
    () => ({ nodes: z.object({ id, tree: growingObject() }) }),
  ],
  ["a z.lazy returning a new z.lazy each time", () => ({ nodes: z.object({ id, tree: growingLazy() }) })],
  [
    "10,000 nested objects",
    () => ({ nodes: z.object({ id, tree: nested(10_000, (inner) => z.object({ inner })) }) }),
  ],
  ["10,000 wrappers", () => ({ nodes: z.object({ id, tree: nested(10_000, (inner) => inner.optional()) }) })],
  [
    "100,000 fields",
    () => {
      const shape: Record<string, z.ZodType> = { id };
      for (let field = 0; field < 100_000; field++) shape[`f${field}`] = z.string();
      return { nodes: z.object(shape) };
    },
  ],
  [
    "1,000 collections of 200 fields",
    () => {
      const collections: Collections = {};
      for (let index = 0; index < 1_000; index++) {
        const shape: Record<string, z.ZodType> = { id };
        for (let field = 0; field < 200; field++) shape[`f${field}`] = z.string();
        collections[`c${index}`] = z.object(shape);
      }
      return collections;
    },
  ],
  ["recursive unions mixing 8 branches", () => ({ nodes: z.object({ id, tree: mixingUnions(8) }) })],
  ["recursive unions mixing 16 branches", () => ({ nodes: z.object({ id, tree: mixingUnions(16) }) })],
  ["a cycle through 95 chains of 95 objects", () => ({ nodes: z.object({ id, tree: longCycle(95, 95) }) })],
];

/** Defines the records and one template; the outcome in words. */
function define(collections: Collections): string {
  const first = Object.keys(collections)[0] as string;
  try {
    const records = defineRecords({ ...collections, contacts: z.object({ id, email: z.email() }) } as never);
    defineTemplate(
      records as never,
      {
        effect: "informational",
        id: "show_one",
        description: "Shows one record",
        audience: "seller",
        channel: "email",
        to: records.slot.ref("contacts" as never, { show: "email" }),
        subject: "Record",
        body: "Record {{record}}",
        slots: { record: records.slot.ref(first as never, { show: "id" }) },
        limits: { perTicket: 1, perDay: 10 },
      } as never,
    );
    return "catalog";
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return `DefinitionError: ${error.message.slice(0, 48)}…`;
  }
}

process.stdout.write("definitions on hostile schemas (CPU, wall clock, bytes allocated; outcome)\n");
for (const [name, build] of shapes) {
  const collections = build();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const outcome = define(collections);
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  // Measured again on schemas built afresh, since sampling allocations slows the definition down.
  const fresh = build();
  const allocated = await bytesAllocated(async () => {
    define(fresh);
  });
  const figures = `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${wall.toFixed(0)} ms, ${(allocated / 1e6).toFixed(0)} MB`;
  report(name, `${figures.padEnd(20)} ${outcome}`);
}
process.stdout.write("\n");
