import { describe, expect, it } from "vitest";
import { z } from "zod";
import { labelTree } from "../../../src/core/definition/label-tree.js";
import { SchemaWalk } from "../../../src/core/definition/schema-walk.js";
import {
  createCatalog,
  DefinitionError,
  defineRecords,
  defineTemplate,
  untrusted,
} from "../../../src/index.js";
import { thrown } from "../../fixtures/expect.js";
import { growingLazy, growingObject, nested } from "../../fixtures/schema-shapes.js";
import { recordsWith, showField } from "../../fixtures/show-field.js";

const id = z.string();
type Tree = { name: string; children: Tree[] };

/** Recursive schemas as users write them, each with the buyer's text at every level of the tree. */
const recursive: [string, () => z.ZodType][] = [
  [
    "z.lazy",
    () => {
      const node: z.ZodType<Tree> = z.lazy(() =>
        z.object({ name: untrusted("buyer", z.string()), children: z.array(node) }),
      );
      return node;
    },
  ],
  [
    "a getter on the shape",
    () => {
      const node = z.object({
        name: untrusted("buyer", z.string()),
        get children() {
          return z.array(node);
        },
      });
      return node;
    },
  ],
  [
    "two schemas referring to each other by getters",
    () => {
      const folder = z.object({
        title: z.string(),
        get files() {
          return z.array(file);
        },
      });
      const file = z.object({
        name: untrusted("buyer", z.string()),
        get parent() {
          return folder.optional();
        },
      });
      return folder;
    },
  ],
  [
    "a discriminated union of z.lazy branches",
    () => {
      const expr: z.ZodType = z.lazy(() =>
        z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("text"), text: untrusted("buyer", z.string()) }),
          z.object({ kind: z.literal("pair"), left: expr, right: expr.nullable() }),
        ]),
      );
      return expr;
    },
  ],
  [
    "a z.record of itself",
    () => {
      const dir: z.ZodType = z.lazy(() =>
        z.union([untrusted("buyer", z.string()), z.record(z.string(), dir)]),
      );
      return dir;
    },
  ],
  [
    "an intersection with itself inside",
    () => {
      const node: z.ZodType = z.lazy(() =>
        z.intersection(
          z.object({ name: untrusted("buyer", z.string()) }),
          z.object({ next: node.optional() }),
        ),
      );
      return node;
    },
  ],
  ["z.json() labelled as a whole", () => untrusted("buyer", z.json())],
];

describe("recursive schemas close into a cycle", () => {
  it.each(recursive)("%s: defines, and the buyer's text in it is found on the field", (_name, build) => {
    const records = recordsWith(build());
    const error = thrown(() => showField(records, "seller"));
    expect(error.message).toContain("nodes.field");
    expect(error.message).toContain('untrusted text written by "buyer"');
    expect(showField(records, "buyer").id).toBe("show_field");
  });

  it("a z.lazy tree is one place whose children are itself, the same on every definition", () => {
    const [, build] = recursive[0] as [string, () => z.ZodType];
    const node = build();
    for (let run = 0; run < 20; run++) {
      const tree = recordsWith(node).labelTrees.get("nodes")?.fields.get("field");
      expect(tree?.fields.get("children")?.items).toBe(tree);
      expect(tree?.fields.get("name")?.own).toEqual([{ kind: "untrusted", author: "buyer" }]);
    }
  });

  it("z.json() defines, and the json value is one place that holds itself", () => {
    const data = recordsWith(z.json()).labelTrees.get("nodes")?.fields.get("field");
    expect(data?.items).toBeDefined();
    expect(data?.items?.items).toBe(data?.items);
  });

  it("runs an object's property getter once, however often the schema is walked", () => {
    let calls = 0;
    const node = z.object({
      name: z.string(),
      get children() {
        calls++;
        return z.array(node);
      },
    });
    const records = recordsWith(node);
    showField(records, "seller");
    recordsWith(node);
    labelTree(records.collections.nodes);
    expect(calls).toBe(1);
  });

  it("reads a z.lazy through zod's cache: its getter runs at most twice, and never again later", () => {
    let calls = 0;
    const node: z.ZodType<Tree> = z.lazy(() => {
      calls++;
      return z.object({ name: z.string(), children: z.array(node) });
    });
    recordsWith(node);
    const first = calls;
    expect(first).toBeLessThanOrEqual(2);
    recordsWith(node);
    recordsWith(node);
    node.parse({ name: "a", children: [{ name: "b", children: [] }] });
    expect(calls).toBe(first);
  });

  it("labelling a z.lazy before its schema exists neither breaks it nor loses the label", () => {
    // The getter refers to a schema not built yet: reading it now throws, and zod would keep that failure.
    const early = untrusted(
      "buyer",
      z.lazy((): z.ZodType => later),
    );
    const later = z.object({ text: z.string() });
    expect(early.parse({ text: "fine" })).toEqual({ text: "fine" });
    const records = recordsWith(early);
    const tree = records.labelTrees.get("nodes")?.fields.get("field");
    expect(tree?.own).toEqual([{ kind: "untrusted", author: "buyer" }]);
    expect(later.shape.text).toBeDefined();
  });

  it("code run for a seller gets a deep recursive record with the buyer's text removed at every level", () => {
    const [, build] = recursive[1] as [string, () => z.ZodType];
    const records = recordsWith(build());
    let seen = "";
    const template = defineTemplate(records, {
      effect: "informational",
      id: "tree_dump",
      description: "What code sees",
      audience: "seller",
      channel: "email",
      to: records.slot.ref("contacts", { show: "email" }),
      subject: "Tree",
      body: "Tree {{seen}}",
      slots: {
        seen: records.slot.derived((context) => {
          seen = JSON.stringify(context.records.nodes);
          return "ok";
        }),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
    let tree: Tree = { name: "LEAFSECRET", children: [] };
    for (let depth = 0; depth < 6; depth++) tree = { name: `SECRET${depth}`, children: [tree, tree] };
    const decision = createCatalog(records, [template]).decide(
      { template: "tree_dump", slots: {} },
      {
        ticketId: "T-1",
        nodes: [{ id: "n1", field: tree }],
        contacts: [{ id: "c1", email: "shop@example.com" }],
      },
    );
    expect(decision.outcome).toBe("send");
    expect(seen).toContain('"children":[{"children":[{"children"');
    expect(seen).not.toContain("SECRET");
  });
});

/** Expects a records definition error naming `collection`, and returns its message. */
function refused(define: () => unknown, collection = "nodes"): string {
  const error = thrown(define);
  expect(error).toBeInstanceOf(DefinitionError);
  expect((error as DefinitionError).code).toBe("records_definition_invalid");
  expect(error.message).toContain(collection);
  return error.message;
}

/** Schemas that build a new schema every time they are read: walked naively, they never end. */
const endless: [string, string, () => z.ZodType][] = [
  ["a getter that builds a new object on each call", "nodes.field.children[]", growingObject],
  ["a z.lazy that returns a new z.lazy each time", "nodes.field", growingLazy],
  [
    "a z.lazy that returns a new object holding a new z.lazy",
    "nodes.field.next.next",
    () => {
      const make = (): z.ZodType => z.lazy(() => z.object({ next: make(), also: z.array(make()) }));
      return make();
    },
  ],
  [
    "getters that build each other anew",
    "nodes.field.b.a.b",
    () => {
      const a = (): z.ZodType =>
        z.object({
          get b() {
            return b();
          },
        });
      const b = (): z.ZodType =>
        z.object({
          get a() {
            return a().optional();
          },
        });
      return a();
    },
  ],
];

describe("a schema that grows as it is read is refused, never followed", () => {
  it.each(endless)("%s: a DefinitionError naming the place and the fix", (_name, path, build) => {
    const message = refused(() => recordsWith(build()));
    expect(message).toContain('collection "nodes" never ends');
    expect(message).toContain(path);
    expect(message).toContain("built anew each time it is read");
    expect(message).toContain("define that schema once, outside the getter or z.lazy");
  });

  it.each(endless)("%s: labelling it is refused the same way", (_name, _path, build) => {
    const error = thrown(() => untrusted("buyer", build()));
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toMatch(/^untrusted: the schema it labels never ends/);
  });
});

describe("every walk is bounded by its budget", () => {
  it("10,000 nested objects: refused at the depth bound, with the path", () => {
    const message = refused(() => recordsWith(nested(10_000, (inner) => z.object({ inner }))));
    expect(message).toContain("nested more than 256 levels deep");
    expect(message).toContain("nodes.field.inner.inner");
    expect(message).not.toContain("built anew");
  });

  it("10,000 wrappers: refused at the depth bound", () => {
    const deep = nested(10_000, (inner, level) => (level % 2 === 0 ? inner.optional() : inner.nullable()));
    expect(refused(() => recordsWith(deep))).toContain("nested more than 256 levels deep");
  });

  it("a schema exactly as deep as the bound is accepted, and one step more is not", () => {
    const objects = (levels: number) => nested(levels, (inner) => z.object({ inner }));
    // The collection's object, then each nested object, then the string: 256 schemas from root to leaf.
    expect(recordsWith(objects(254)).names).toEqual(["nodes", "contacts"]);
    expect(refused(() => recordsWith(objects(255)))).toContain("nested more than 256 levels deep");
  });

  it("100,000 fields: refused at the size bound, naming the collection", () => {
    const shape: Record<string, z.ZodType> = { id };
    const text = z.string();
    for (let field = 0; field < 100_000; field++) shape[`f${field}`] = text;
    const message = refused(() => defineRecords({ nodes: z.object(shape) as never }));
    expect(message).toContain("more than 20,000 schemas and parts");
    expect(message).toContain('collection "nodes"');
    expect(message).toContain("declare only the fields templates and code read");
  });

  it("the size bound counts every collection of one definition together", () => {
    const shape: Record<string, z.ZodType> = { id };
    for (let field = 0; field < 100; field++) shape[`f${field}`] = z.string();
    const collections: Record<string, z.ZodType> = {};
    for (let index = 0; index < 196; index++) collections[`c${index}`] = z.object(shape);
    // The field schemas are shared, so each is read once (101); each collection's object is read with its
    // 101 parts (102): 195 collections make 19,991, a 196th goes past 20,000.
    expect(refused(() => defineRecords(collections as never), 'collection "c195"')).toContain(
      "more than 20,000",
    );
    delete collections.c195;
    expect(defineRecords(collections as never).names).toHaveLength(195);
  });

  it("a recursive schema whose unions combine into ever new places: refused at the work bound", () => {
    const parts: z.ZodType[] = [];
    const size = 14;
    const at = (index: number) => z.lazy(() => parts[index % size] as z.ZodType);
    for (let index = 0; index < size; index++) {
      const shape: Record<string, z.ZodType> = {};
      for (let field = 0; field < size; field++) shape[`f${field}`] = at(index + field + 1);
      const branch = z.object({ [`f${index}`]: at(index * 3 + 1) }).catchall(at(index + 2));
      parts.push(z.union([z.object(shape), branch]));
    }
    const message = refused(() => recordsWith(parts[0] as z.ZodType));
    expect(message).toContain("cannot be worked out within 200,000 steps");
    expect(message).toContain("nodes.field");
  });

  it("counts schemas against the budget it is given: a walk over n parts passes at n and fails below", () => {
    const schema = z.object({ a: z.string(), b: z.array(z.number()) });
    // object (1 + 2 parts) + string (1) + array (1 + 1 part) + number (1)
    const parts = 7;
    new SchemaWalk("test", { parts, depth: 10, work: 100 }).read(schema, "it", "it");
    const error = thrown(() =>
      new SchemaWalk("test", { parts: parts - 1, depth: 10, work: 100 }).read(schema, "it", "it"),
    );
    expect(error.message).toContain("more than 6 schemas and parts");
  });
});

const boom = (): never => {
  throw new Error("boom");
};

describe("hostile schema objects end in a DefinitionError", () => {
  it.each([
    [
      "a property getter that throws",
      () => ({
        nodes: z.object({
          id,
          get field(): z.ZodType {
            return boom();
          },
        }),
      }),
      "property getter throws",
    ],
    [
      "a nested getter that throws",
      () => ({
        nodes: z.object({
          id,
          field: z.object({
            get inner(): z.ZodType {
              return boom();
            },
          }),
        }),
      }),
      "nodes.field",
    ],
    [
      "a z.lazy whose getter throws",
      () => ({
        nodes: z.object({
          id,
          field: z.lazy(boom),
        }),
      }),
      "a z.lazy whose getter throws",
    ],
    [
      "a proxy whose traps throw",
      () => ({
        nodes: z.object({
          id,
          field: new Proxy(
            {},
            {
              get() {
                throw new Error("trap");
              },
            },
          ) as z.ZodType,
        }),
      }),
      "nodes.field",
    ],
    [
      "a collections object whose getter throws",
      () => ({
        get nodes(): z.ZodObject<{ id: z.ZodString }> {
          return boom();
        },
      }),
      "the collections cannot be read",
    ],
  ])("%s", (_name, collections, words) => {
    const error = thrown(() => defineRecords(collections() as never));
    expect(error.message).toContain(words);
  });

  it("a cycle of wrappers made by changing a definition is walked once", () => {
    const either = z.union([untrusted("buyer", z.string()), z.number()]);
    const outer = either.optional();
    (either._zod.def.options as unknown as unknown[]).push(outer);
    const records = recordsWith(outer);
    expect(records.labelTrees.get("nodes")?.fields.get("field")?.own).toEqual([
      { kind: "untrusted", author: "buyer" },
    ]);
  });
});
