/**
 * Drain, the log parser of He, Zhu, Zheng and Lyu ("Drain: An Online Log Parsing Approach with Fixed
 * Depth Tree", ICWS 2017), written from the paper as the baseline `mine`'s clustering is measured
 * against: it is the parser the field's Loghub-2k benchmark is anchored on, and no package of it installs
 * here. Where the paper leaves a detail open, this follows what the published figures were made with:
 *
 * - `depth` counts every layer of a path: the root, the layer of token counts, the token layers and the
 *   layer of clusters, so a message descends through its first `depth - 3` tokens (read as `depth - 2`
 *   tokens, the published settings miss the published figures by up to 0.08: HealthApp, OpenSSH);
 * - similarity is the share of positions where the cluster's template holds the message's token, over
 *   the message's length: a `<*>` of the template never counts as equal (the paper's seqDist);
 * - among clusters of equal similarity the one with more `<*>` wins, then the older one.
 */

/** Options of {@link Drain}. */
export interface DrainOptions {
  /** Layers of a path, root and clusters included; at least 3. @default 4 */
  readonly depth?: number;
  /** Least share of equal tokens for a message to join a cluster, from 0 to 1. @default 0.4 */
  readonly similarity?: number;
  /** Most children of a token node; past it, new tokens share the `<*>` child. @default 100 */
  readonly maxChildren?: number;
  /** Applied in order before tokenising: every match becomes `<*>` (the domain knowledge of a system). */
  readonly masks?: readonly RegExp[];
}

/** The token that stands for a parameter, in templates and in the tree. */
export const wildcard = "<*>";

interface Cluster {
  readonly id: number;
  template: string[];
}

/** A token node: children by token (`<*>` for tokens with digits and for overflow), clusters at the last layer. */
interface TreeNode {
  readonly children: Map<string, TreeNode>;
  readonly clusters: Cluster[];
}

const newNode = (): TreeNode => ({ children: new Map(), clusters: [] });
const digit = /\p{Nd}/u;
const whitespace = /\s+/u;

/** An online Drain parser: each message joins the most similar cluster of its path or starts one. */
export class Drain {
  private readonly tokenLayers: number;
  private readonly threshold: number;
  private readonly maxChildren: number;
  private readonly masks: readonly RegExp[];
  private readonly byLength = new Map<number, TreeNode>();
  private readonly clusters: Cluster[] = [];

  constructor(options: DrainOptions = {}) {
    const depth = options.depth ?? 4;
    if (!Number.isInteger(depth) || depth < 3)
      throw new RangeError(
        `Drain: depth must be an integer of at least 3 (root, lengths, clusters), got ${depth}`,
      );
    const similarity = options.similarity ?? 0.4;
    if (!(similarity >= 0 && similarity <= 1))
      throw new RangeError(`Drain: similarity must be a number from 0 to 1, got ${similarity}`);
    const maxChildren = options.maxChildren ?? 100;
    if (!Number.isInteger(maxChildren) || maxChildren < 1)
      throw new RangeError(`Drain: maxChildren must be a positive integer, got ${maxChildren}`);
    this.tokenLayers = depth - 3;
    this.threshold = similarity;
    this.maxChildren = maxChildren;
    // Every mask replaces all its matches, whatever flags it was written with.
    this.masks = (options.masks ?? []).map(
      (mask) => new RegExp(mask.source, mask.flags.includes("g") ? mask.flags : `${mask.flags}g`),
    );
  }

  /** Parses one message and returns the id of its cluster (0, 1, 2… in order of creation). */
  add(content: string): number {
    let masked = content;
    for (const mask of this.masks) masked = masked.replace(mask, wildcard);
    const trimmed = masked.trim();
    const tokens = trimmed === "" ? [] : trimmed.split(whitespace);
    const match = this.search(tokens);
    if (match === undefined) {
      const cluster = { id: this.clusters.length, template: tokens };
      this.clusters.push(cluster);
      this.leafFor(tokens).clusters.push(cluster);
      return cluster.id;
    }
    for (let i = 0; i < tokens.length; i++) if (match.template[i] !== tokens[i]) match.template[i] = wildcard;
    return match.id;
  }

  /** The current template of cluster `id`, tokens joined by one space. */
  template(id: number): string {
    const cluster = this.clusters[id];
    if (cluster === undefined)
      throw new RangeError(`Drain: no cluster ${id}; ids run from 0 to ${this.size - 1}`);
    return cluster.template.join(" ");
  }

  /** Clusters found so far. */
  get size(): number {
    return this.clusters.length;
  }

  /** The most similar cluster on the message's path, if similar enough: a token missing from a node takes `<*>`. */
  private search(tokens: readonly string[]): Cluster | undefined {
    let node = this.byLength.get(tokens.length);
    const layers = Math.min(this.tokenLayers, tokens.length);
    for (let layer = 0; layer < layers && node !== undefined; layer++) {
      const token = tokens[layer] as string;
      node = node.children.get(token) ?? node.children.get(wildcard);
    }
    return node === undefined ? undefined : this.closest(node.clusters, tokens);
  }

  /**
   * The node a new cluster goes to, made where missing. A token without digits gets its own child
   * while the node has room; tokens with digits (likely parameters), and every token once the node is
   * full, share the `<*>` child. The last free place goes to `<*>`, so overflow always has somewhere to go.
   */
  private leafFor(tokens: readonly string[]): TreeNode {
    let node: TreeNode | undefined = this.byLength.get(tokens.length);
    if (node === undefined) {
      node = newNode();
      this.byLength.set(tokens.length, node);
    }
    const layers = Math.min(this.tokenLayers, tokens.length);
    for (let layer = 0; layer < layers; layer++) {
      const token = tokens[layer] as string;
      const children: Map<string, TreeNode> = node.children;
      const own = children.get(token);
      if (own !== undefined) {
        node = own;
        continue;
      }
      const shared = children.get(wildcard);
      const room =
        shared === undefined ? children.size + 1 < this.maxChildren : children.size < this.maxChildren;
      const key = !digit.test(token) && room ? token : wildcard;
      let next = children.get(key);
      if (next === undefined) {
        next = newNode();
        children.set(key, next);
      }
      node = next;
    }
    return node;
  }

  private closest(clusters: readonly Cluster[], tokens: readonly string[]): Cluster | undefined {
    let best: Cluster | undefined;
    let bestSimilarity = -1;
    let bestWildcards = -1;
    for (const cluster of clusters) {
      let equal = 0;
      let wildcards = 0;
      for (let i = 0; i < tokens.length; i++) {
        const token = cluster.template[i];
        if (token === wildcard) wildcards++;
        else if (token === tokens[i]) equal++;
      }
      // Two empty messages are alike: nothing in them differs.
      const similarity = tokens.length === 0 ? 1 : equal / tokens.length;
      if (similarity > bestSimilarity || (similarity === bestSimilarity && wildcards > bestWildcards)) {
        best = cluster;
        bestSimilarity = similarity;
        bestWildcards = wildcards;
      }
    }
    return bestSimilarity >= this.threshold ? best : undefined;
  }
}
