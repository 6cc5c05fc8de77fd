import type { SharedKey } from "./record-profile.js";

/** A ref slot of a draft, as the join planner sees it: its name and collection. */
export interface JoinedSlot {
  readonly name: string;
  readonly collection: string;
}

/** A ref slot the joins need though the text shows none of it: the record linking two chosen ones. */
export interface LinkSlot extends JoinedSlot {
  /** The fields it is joined on (the template uses it in an empty section: it shows nothing). */
  readonly fields: readonly string[];
}

/** How the records of a draft are joined: each slot's `match`, and the slots added to link them. */
export interface JoinPlan {
  /** Slot name → `match` (own field → "earlier slot.field"); the recipient is "to". */
  readonly match: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Slots added between the chosen ones and the recipient (damage → vehicle → garage), in order. */
  readonly links: readonly LinkSlot[];
  /** The recipient is joined to a chosen record: the model does not choose among recipients. */
  readonly recipientJoined: boolean;
  /** Slots (recipient aside) joined to no other record: nothing in the records says which one belongs. */
  readonly unjoined: readonly string[];
}

/** Options of {@link planJoins}. */
export interface JoinOptions {
  /** Whether a field may be joined on for this template (readable by its audience, not an outsider's). */
  readonly joinable?: (collection: string, field: string) => boolean;
  /** A free name for a link slot of `collection`. */
  readonly nameFor?: (collection: string) => string;
  /** The field that is a record's identity in every collection, joining two slots of one collection. @default "id" */
  readonly identity?: (collection: string) => string | undefined;
}

/**
 * Joins a draft's records on the keys the history's records share: every pair of chosen records that a
 * key links is joined by `match`, and the recipient is joined to them, through records of collections the
 * text does not show when the keys pass through one (a damage's vehicle's garage). Two slots of one
 * collection (a shown seller and the recipient seller) are the same record, joined on its identity.
 *
 * Joined fields that are equal by a chain of keys form one class; each slot matches the first earlier
 * slot of each class it holds a field of, so every key between the records holds in a sent message and
 * no slot needs two matches on one field. `slots` are in declaration order; the recipient ("to") is
 * resolved after them and is added here.
 */
export function planJoins(
  slots: readonly JoinedSlot[],
  recipient: string,
  keys: readonly SharedKey[],
  options: JoinOptions = {},
): JoinPlan {
  const joinable = options.joinable ?? (() => true);
  const identity = options.identity ?? (() => "id");
  const usable = keys.filter(
    (key) =>
      key.from.collection !== key.to.collection &&
      // Two records' own ids agreeing is numbering ("1" in both collections), not a reference.
      !(key.from.field === identity(key.from.collection) && key.to.field === identity(key.to.collection)) &&
      joinable(key.from.collection, key.from.field) &&
      joinable(key.to.collection, key.to.field),
  );
  const chosen = [...new Set([...slots.map((slot) => slot.collection), recipient])];
  const linkCollections = linksBetween(chosen, recipient, usable);
  const links: JoinedSlot[] = linkCollections.map((collection) => ({
    name: options.nameFor?.(collection) ?? collection,
    collection,
  }));
  const ordered: JoinedSlot[] = [...slots, ...links, { name: "to", collection: recipient }];

  // Union-find over "slot.field": each key between two slots' collections makes their fields equal.
  const parent = new Map<string, string>();
  const find = (node: string): string => {
    let root = node;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(node, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [rootA, rootB] = [find(a), find(b)];
    if (rootA !== rootB) parent.set(rootB, rootA);
  };
  for (const [i, left] of ordered.entries()) {
    for (const right of ordered.slice(i + 1)) {
      if (left.collection === right.collection) {
        const id = identity(left.collection);
        if (id !== undefined && joinable(left.collection, id))
          union(`${left.name}.${id}`, `${right.name}.${id}`);
        continue;
      }
      for (const key of usable) {
        for (const [a, b] of [
          [left, right],
          [right, left],
        ] as const) {
          if (key.from.collection === a.collection && key.to.collection === b.collection)
            union(`${a.name}.${key.from.field}`, `${b.name}.${key.to.field}`);
        }
      }
    }
  }

  const match = new Map<string, Record<string, string>>();
  const firstOfClass = new Map<string, string>();
  const linkFields = new Map<string, string[]>();
  for (const slot of ordered) {
    const own: Record<string, string> = {};
    const fields = [...parent.keys()]
      .filter((node) => node.startsWith(`${slot.name}.`))
      .map((node) => node.slice(slot.name.length + 1))
      .sort();
    const rootsHere = new Map<string, string>();
    for (const field of fields) {
      const root = find(`${slot.name}.${field}`);
      const first = firstOfClass.get(root);
      if (first !== undefined) own[field] = first;
      else if (!rootsHere.has(root)) rootsHere.set(root, `${slot.name}.${field}`);
      if (links.some((link) => link.name === slot.name))
        linkFields.set(slot.name, [...(linkFields.get(slot.name) ?? []), field]);
    }
    for (const [root, node] of rootsHere) firstOfClass.set(root, node);
    if (Object.keys(own).length > 0) match.set(slot.name, own);
  }
  const slotsOfClass = new Map<string, Set<string>>();
  for (const node of parent.keys()) {
    const root = find(node);
    const owner = node.slice(0, node.indexOf("."));
    slotsOfClass.set(root, (slotsOfClass.get(root) ?? new Set()).add(owner));
  }
  const joined = new Set<string>();
  for (const owners of slotsOfClass.values())
    if (owners.size > 1) for (const owner of owners) joined.add(owner);
  return {
    match,
    links: links.map((link) => ({ ...link, fields: linkFields.get(link.name) ?? [] })),
    recipientJoined: match.has("to"),
    unjoined: slots.map((slot) => slot.name).filter((name) => !joined.has(name)),
  };
}

/**
 * The collections to add so the chosen ones are connected where keys allow: grown from the recipient,
 * each step adding the chosen collection nearest to what is joined so far by a shortest path of keys.
 */
function linksBetween(chosen: readonly string[], recipient: string, keys: readonly SharedKey[]): string[] {
  const neighbours = new Map<string, Set<string>>();
  for (const key of keys) {
    const [a, b] = [key.from.collection, key.to.collection];
    neighbours.set(a, (neighbours.get(a) ?? new Set()).add(b));
    neighbours.set(b, (neighbours.get(b) ?? new Set()).add(a));
  }
  const joined = new Set([recipient]);
  const added: string[] = [];
  const wanted = new Set(chosen.filter((collection) => collection !== recipient));
  while (wanted.size > 0) {
    // Breadth-first from everything joined so far: the first chosen collection reached is the nearest.
    const previous = new Map<string, string | undefined>();
    const queue = [...joined].sort();
    for (const start of queue) previous.set(start, undefined);
    let reached: string | undefined;
    for (let at = 0; at < queue.length && reached === undefined; at++) {
      const current = queue[at] as string;
      for (const next of [...(neighbours.get(current) ?? [])].sort()) {
        if (previous.has(next)) continue;
        previous.set(next, current);
        if (wanted.has(next)) {
          reached = next;
          break;
        }
        queue.push(next);
      }
    }
    if (reached === undefined) break;
    const path: string[] = [];
    for (let step = previous.get(reached); step !== undefined && !joined.has(step); step = previous.get(step))
      path.unshift(step);
    for (const link of path) {
      joined.add(link);
      if (!chosen.includes(link)) added.push(link);
    }
    joined.add(reached);
    wanted.delete(reached);
  }
  return added;
}
