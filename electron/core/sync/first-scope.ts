import { z } from 'zod';
import type { OfflineScope, ScopeChoice } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import { LAST_SYNC_KEY, type SyncContext } from './context.ts';

/** The most guides a first sync downloads whole before the technician has said what they need. */
export const FIRST_SYNC_LIMIT = 2000;
export const SCOPE_CHOICE_KEY = 'sync.scopeChoice';

/**
 * The scope this sync works to. A first sync of a site bigger than FIRST_SYNC_LIMIT, with no scope ever
 * chosen, keeps every summary (they are small, searchable) and no more whole guides than are stored (one
 * kept by "Keep offline" while the listing ran stays), and records that the technician has a choice to
 * make. A library that a finished sync left holding whole guides keeps its scope: a site that grows later
 * never loses what this computer has.
 */
export function scopeToSync(ctx: Pick<SyncContext, 'store' | 'scope' | 'scopeChosen'>): OfflineScope {
  const { store } = ctx;
  const scope = ctx.scope();
  if (ctx.scopeChosen() || scope.mode !== 'all') {
    store.settings.delete(SCOPE_CHOICE_KEY);
    return scope;
  }
  const { total, offline } = store.guides.count();
  const keptBySync = offline > 0 && store.settings.get(LAST_SYNC_KEY, z.number()) !== undefined;
  if (keptBySync || total <= FIRST_SYNC_LIMIT) {
    store.settings.delete(SCOPE_CHOICE_KEY);
    return scope;
  }
  store.settings.set(SCOPE_CHOICE_KEY, { guides: total });
  return { mode: 'selected', categories: [], guideids: store.guides.wholeIds(FIRST_SYNC_LIMIT) };
}

/** The choice waiting for the technician, if any (none once a scope is chosen). */
export function scopeChoice(store: Store, scopeChosen: boolean): ScopeChoice | null {
  if (scopeChosen) return null;
  const pending = store.settings.get(SCOPE_CHOICE_KEY, z.object({ guides: z.number() }));
  return pending ? { guides: pending.guides, limit: FIRST_SYNC_LIMIT } : null;
}

/**
 * The scope with one more guide kept whole, or null when it keeps it already. Where "everything" keeps
 * nothing whole yet (a big site waiting for the first choice, or one still being listed for the first
 * time past FIRST_SYNC_LIMIT), the guide starts a selection of its own: that is a scope the sync keeps,
 * and the sync centre offers the categories on top of it.
 */
export function scopeWithGuide(
  store: Store,
  scope: OfflineScope,
  chosen: boolean,
  guideid: number,
): OfflineScope | null {
  if (scope.mode === 'all') {
    const waiting = !chosen && (scopeChoice(store, chosen) !== null || store.guides.count().total > FIRST_SYNC_LIMIT);
    return waiting ? { mode: 'selected', categories: [], guideids: [guideid] } : null;
  }
  return scope.guideids.includes(guideid) ? null : { ...scope, guideids: [...scope.guideids, guideid] };
}
