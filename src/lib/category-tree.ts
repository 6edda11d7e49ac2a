import type { CategoryNode } from '../../electron/contract.ts';

export interface CategoryRow {
  node: CategoryNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** The visible rows of a category tree: a node's children show only when it is expanded. */
export function visibleCategoryRows(
  tree: readonly CategoryNode[],
  expanded: ReadonlySet<string>,
  depth = 0,
): CategoryRow[] {
  const rows: CategoryRow[] = [];
  for (const node of tree) {
    const open = expanded.has(node.name);
    rows.push({ node, depth, hasChildren: node.children.length > 0, expanded: open });
    if (open) rows.push(...visibleCategoryRows(node.children, expanded, depth + 1));
  }
  return rows;
}

/** Names of the categories from the root down to `name` (empty when it is not in the tree). */
export function categoryPath(tree: readonly CategoryNode[], name: string): string[] {
  for (const node of tree) {
    if (node.name === name) return [node.name];
    const below = categoryPath(node.children, name);
    if (below.length > 0) return [node.name, ...below];
  }
  return [];
}

/** Every category of the tree, depth first, with its depth and its ancestors' names (for the scope editor). */
export function flattenCategories(
  tree: readonly CategoryNode[],
  depth = 0,
  ancestors: readonly string[] = [],
): { node: CategoryNode; depth: number; ancestors: readonly string[] }[] {
  return tree.flatMap((node) => [
    { node, depth, ancestors },
    ...flattenCategories(node.children, depth + 1, [...ancestors, node.name]),
  ]);
}

export function totalGuides(tree: readonly CategoryNode[]): number {
  return tree.reduce((sum, node) => sum + node.guideCount, 0);
}
