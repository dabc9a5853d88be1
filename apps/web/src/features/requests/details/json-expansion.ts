/**
 * Which nodes of a JSON tree start expanded. Levels open breadth-first while the rows they add stay
 * within a budget, so a small document opens fully and a large one opens only its first level:
 * the first paint never builds more than a few hundred rows, whatever the size of the body.
 */

/** Children of one node shown at a time; the rest come with 'Show more'. */
export const JSON_PAGE_SIZE = 100;
/** Rows the default expansion may add. */
export const JSON_OPEN_BUDGET = 400;
export const JSON_OPEN_MAX_DEPTH = 4;

export type JsonPath = string;

/** A key stable across renders for a child of `parent`; the separator cannot occur in JSON text keys by accident. */
export const childPath = (parent: JsonPath, key: string | number): JsonPath => `${parent}\u001f${key}`;
export const ROOT_PATH: JsonPath = '$';

export const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' && value !== null;

export function childCount(value: Record<string, unknown> | unknown[]): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** Paths of the nodes to open at first. The root is always open. */
export function initialExpansion(root: unknown, budget = JSON_OPEN_BUDGET, maxDepth = JSON_OPEN_MAX_DEPTH): Set<JsonPath> {
  const open = new Set<JsonPath>();
  if (!isContainer(root)) return open;
  open.add(ROOT_PATH);
  let rows = Math.min(childCount(root), JSON_PAGE_SIZE);
  type Node = [JsonPath, Record<string, unknown> | unknown[]];
  let level: Node[] = [[ROOT_PATH, root]];
  for (let depth = 1; depth < maxDepth && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const [path, value] of level) {
      const entries = Array.isArray(value) ? value.slice(0, JSON_PAGE_SIZE).map((v, i) => [i, v] as const)
        : Object.entries(value).slice(0, JSON_PAGE_SIZE);
      for (const [key, child] of entries) {
        if (isContainer(child)) next.push([childPath(path, key), child]);
      }
    }
    const added = next.reduce((sum, [, child]) => sum + Math.min(childCount(child), JSON_PAGE_SIZE), 0);
    if (next.length === 0 || rows + added > budget) break;
    for (const [path] of next) open.add(path);
    rows += added;
    level = next;
  }
  return open;
}
