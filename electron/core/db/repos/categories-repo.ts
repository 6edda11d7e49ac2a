import type { CategoryNode } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { readableBy, type GuideReader } from './guide-row.ts';

export interface CategoryInput {
  name: string;
  children: CategoryInput[];
}

/** The site's category tree, and guide counts over it. */
export class CategoriesRepo {
  constructor(private readonly db: Db) {}

  replace(roots: CategoryInput[]): void {
    this.db.transaction(() => {
      sql(this.db, 'DELETE FROM categories').run();
      const insert = sql(this.db, 'INSERT OR IGNORE INTO categories (name, parent, position) VALUES (?, ?, ?)');
      let position = 0;
      const walk = (nodes: CategoryInput[], parent: string | null): void => {
        for (const node of nodes) {
          insert.run(node.name, parent, position++);
          walk(node.children, node.name);
        }
      };
      walk(roots, null);
    })();
  }

  /** The category and every category below it. */
  withDescendants(name: string): string[] {
    const rows = sql(
      this.db,
      `WITH RECURSIVE below(name) AS (SELECT ? UNION SELECT c.name FROM categories c JOIN below b ON c.parent = b.name)
         SELECT name FROM below`,
    ).all(name) as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** The tree, with the count of guides this reader may see in each category (and below). */
  tree(reader: GuideReader | null): CategoryNode[] {
    const rows = sql(this.db, 'SELECT name, parent FROM categories ORDER BY position').all() as {
      name: string;
      parent: string | null;
    }[];
    const readable = readableBy(reader);
    const counts = new Map(
      (
        sql(this.db, `SELECT category, count(*) AS n FROM guides WHERE ${readable.clause} GROUP BY category`).all(
          ...readable.params,
        ) as { category: string; n: number }[]
      ).map((r) => [r.category, r.n]),
    );
    const nodes = new Map<string, CategoryNode>();
    for (const row of rows)
      nodes.set(row.name, { name: row.name, title: row.name, guideCount: counts.get(row.name) ?? 0, children: [] });
    const roots: CategoryNode[] = [];
    for (const row of rows) {
      const node = nodes.get(row.name)!;
      const parent = row.parent === null ? undefined : nodes.get(row.parent);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    const total = (node: CategoryNode): number => {
      node.guideCount += node.children.reduce((sum, child) => sum + total(child), 0);
      return node.guideCount;
    };
    roots.forEach(total);
    return roots;
  }
}
