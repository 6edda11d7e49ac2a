import { z } from 'zod';
import type { OfflineScope, ScopeChoice } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import type { SyncContext } from './context.ts';

/** The most guides a first sync downloads whole before the technician has said what they need. */
export const FIRST_SYNC_LIMIT = 2000;
export const SCOPE_CHOICE_KEY = 'sync.scopeChoice';

const NOTHING_WHOLE: OfflineScope = { mode: 'selected', categories: [], guideids: [] };

/**
 * The scope this sync works to. A first sync of a site bigger than FIRST_SYNC_LIMIT, with no scope ever
 * chosen, keeps every summary (they are small, searchable) but downloads no whole guide, and records
 * that the technician has a choice to make. A library that already holds whole guides keeps its scope:
 * a site that grows later never loses what this computer has.
 */
export function scopeToSync(ctx: Pick<SyncContext, 'store' | 'scope' | 'scopeChosen'>): OfflineScope {
  const { store } = ctx;
  if (ctx.scopeChosen || ctx.scope.mode !== 'all') {
    store.settings.delete(SCOPE_CHOICE_KEY);
    return ctx.scope;
  }
  const { total, offline } = store.guides.count();
  if (offline > 0 || total <= FIRST_SYNC_LIMIT) {
    store.settings.delete(SCOPE_CHOICE_KEY);
    return ctx.scope;
  }
  store.settings.set(SCOPE_CHOICE_KEY, { guides: total });
  return NOTHING_WHOLE;
}

/** The choice waiting for the technician, if any (none once a scope is chosen). */
export function scopeChoice(store: Store, scopeChosen: boolean): ScopeChoice | null {
  if (scopeChosen) return null;
  const pending = store.settings.get(SCOPE_CHOICE_KEY, z.object({ guides: z.number() }));
  return pending ? { guides: pending.guides, limit: FIRST_SYNC_LIMIT } : null;
}
