// The message tree in memory (pure): the active path of a conversation read whole. Used by exports, which read a
// conversation's rows once anyway; the turn reads paths with its own indexed queries.

export interface TreeNode {
  id: string;
  parentId: string | null;
  seq: number;
}

/**
 * The messages from the root to `leafId`, oldest first, by following parentId. A leaf that is not among `nodes`
 * gives an empty path; a broken link (a parent missing, or a cycle in corrupt data) ends the walk there.
 */
export function activePath<N extends TreeNode>(nodes: readonly N[], leafId: string | null): N[] {
  if (leafId === null) return [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const path: N[] = [];
  const seen = new Set<string>();
  let at = byId.get(leafId);
  while (at && !seen.has(at.id)) {
    seen.add(at.id);
    path.push(at);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return path.reverse();
}
