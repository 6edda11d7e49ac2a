import { z } from 'zod';
import type { OfflineScope } from '../../contract.ts';
import type { CategoriesRepo } from '../db/repos/categories-repo.ts';

export const offlineScopeSchema = z.object({
  mode: z.enum(['all', 'selected']),
  categories: z.array(z.string().min(1).max(500)).max(1000),
  guideids: z.array(z.number().int().positive()).max(100_000),
});

export const DEFAULT_SCOPE: OfflineScope = { mode: 'all', categories: [], guideids: [] };

/** Decides which guides are kept whole; the others keep only their summary. */
export function scopeFilter(
  scope: OfflineScope,
  categories: CategoriesRepo,
): (guide: { guideid: number; category: string }) => boolean {
  if (scope.mode === 'all') return () => true;
  const chosen = new Set(scope.categories.flatMap((name) => categories.withDescendants(name)));
  const guides = new Set(scope.guideids);
  return (guide) => guides.has(guide.guideid) || chosen.has(guide.category);
}
