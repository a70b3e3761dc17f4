/**
 * The chatbot option tree of a queue (management.md "Queue option": id, title, message, option =
 * position, parentId, children). Pure operations the editor applies locally before saving each
 * changed option with `POST/PUT/DELETE /queue-options`. Positions stay 1..n among siblings, since
 * the customer answers with that number.
 */
export interface OptionNode {
  /** stable key for React and the editor; `id` once saved */
  key: string;
  id?: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  children: OptionNode[];
}

export interface ApiOption {
  id: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string | number;
  children?: ApiOption[];
}

/** An option whose position changed and must be saved. */
export interface Renumbered {
  id: number;
  option: string;
}

const byPosition = (a: { option: string | number }, b: { option: string | number }) =>
  Number(a.option) - Number(b.option);

/** From the API's nested (children) or flat (parentId) options to the editor's tree. */
export function buildTree(options: ApiOption[]): OptionNode[] {
  const toNode = (o: ApiOption): OptionNode => ({
    key: `o${o.id}`,
    id: o.id,
    parentId: o.parentId ?? null,
    title: o.title ?? '',
    message: o.message ?? '',
    option: String(o.option ?? ''),
    children: [],
  });
  const nested = options.some((o) => o.children?.length);
  if (nested) {
    const walk = (list: ApiOption[]): OptionNode[] =>
      [...list].sort(byPosition).map((o) => ({ ...toNode(o), children: walk(o.children ?? []) }));
    return walk(options);
  }
  const nodes = new Map(options.map((o) => [o.id, toNode(o)]));
  const roots: OptionNode[] = [];
  for (const o of [...options].sort(byPosition)) {
    const node = nodes.get(o.id)!;
    const parent =
      o.parentId !== null && o.parentId !== undefined && o.parentId !== -1 ? nodes.get(o.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export function findNode(tree: OptionNode[], key: string): OptionNode | undefined {
  for (const n of tree) {
    if (n.key === key) return n;
    const inner = findNode(n.children, key);
    if (inner) return inner;
  }
  return undefined;
}

/** Applies `fn` to the sibling list that holds `key` (or the top level for `null` parent). */
function mapSiblings(
  tree: OptionNode[],
  parentKey: string | null,
  fn: (siblings: OptionNode[]) => OptionNode[],
): OptionNode[] {
  if (parentKey === null) return fn(tree);
  return tree.map((n) =>
    n.key === parentKey
      ? { ...n, children: fn(n.children) }
      : { ...n, children: mapSiblings(n.children, parentKey, fn) },
  );
}

function parentKeyOf(tree: OptionNode[], key: string, parent: string | null = null): string | null | undefined {
  for (const n of tree) {
    if (n.key === key) return parent;
    const inner = parentKeyOf(n.children, key, n.key);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

let seq = 0;
/** Adds an empty option at the end of `parentKey`'s children (top level for null). */
export function addOption(tree: OptionNode[], parentKey: string | null): { tree: OptionNode[]; key: string } {
  const key = `new${++seq}`;
  const parent = parentKey === null ? undefined : findNode(tree, parentKey);
  if (parentKey !== null && !parent) return { tree, key };
  const next = mapSiblings(tree, parentKey, (siblings) => [
    ...siblings,
    { key, parentId: parent?.id ?? null, title: '', message: '', option: String(siblings.length + 1), children: [] },
  ]);
  return { tree: next, key };
}

export function updateOption(
  tree: OptionNode[],
  key: string,
  patch: Partial<Pick<OptionNode, 'title' | 'message' | 'id'>>,
): OptionNode[] {
  return tree.map((n) => {
    if (n.key !== key) return { ...n, children: updateOption(n.children, key, patch) };
    const updated = { ...n, ...patch };
    // a freshly saved option: its children (none yet, normally) hang from its new id
    if (patch.id !== undefined) updated.children = n.children.map((c) => ({ ...c, parentId: patch.id! }));
    return updated;
  });
}

/** Positions 1..n in list order; the saved options whose position changed. */
function renumber(siblings: OptionNode[]): { siblings: OptionNode[]; changed: Renumbered[] } {
  const changed: Renumbered[] = [];
  const next = siblings.map((n, i) => {
    const option = String(i + 1);
    if (option === n.option) return n;
    if (n.id !== undefined) changed.push({ id: n.id, option });
    return { ...n, option };
  });
  return { siblings: next, changed };
}

/** Removes an option with its whole subtree; the later siblings move up one position. */
export function removeOption(
  tree: OptionNode[],
  key: string,
): { tree: OptionNode[]; changed: Renumbered[]; removed?: OptionNode } {
  const parentKey = parentKeyOf(tree, key);
  if (parentKey === undefined) return { tree, changed: [] };
  const removed = findNode(tree, key);
  let changed: Renumbered[] = [];
  const next = mapSiblings(tree, parentKey, (siblings) => {
    const r = renumber(siblings.filter((n) => n.key !== key));
    changed = r.changed;
    return r.siblings;
  });
  return { tree: next, changed, removed };
}

/** Moves an option one place up (-1) or down (+1) among its siblings, swapping positions. */
export function moveOption(
  tree: OptionNode[],
  key: string,
  direction: -1 | 1,
): { tree: OptionNode[]; changed: Renumbered[] } {
  const parentKey = parentKeyOf(tree, key);
  if (parentKey === undefined) return { tree, changed: [] };
  let changed: Renumbered[] = [];
  const next = mapSiblings(tree, parentKey, (siblings) => {
    const i = siblings.findIndex((n) => n.key === key);
    const j = i + direction;
    if (i < 0 || j < 0 || j >= siblings.length) return siblings;
    const swapped = siblings.slice();
    [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
    const r = renumber(swapped);
    changed = r.changed;
    return r.siblings;
  });
  return { tree: next, changed };
}

/** The path of positions shown beside an option (`2.1` = first option under the second). */
export function optionPath(tree: OptionNode[], key: string): string {
  const walk = (list: OptionNode[], prefix: string): string | undefined => {
    for (const n of list) {
      const here = prefix ? `${prefix}.${n.option}` : n.option;
      if (n.key === key) return here;
      const inner = walk(n.children, here);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(tree, '') ?? '';
}
