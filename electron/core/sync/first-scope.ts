import { z } from 'zod';
import type { OfflineScope, ScopeChoice } from '../../contract.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import { LAST_SYNC_KEY, type SyncContext } from './context.ts';
import { workedGuides } from './worked-guides.ts';

/** The most guides a first sync downloads whole before the technician has said what they need. */
export const FIRST_SYNC_LIMIT = 2000;
export const SCOPE_CHOICE_KEY = 'sync.scopeChoice';

/**
 * Whether this sync waits for the technician's first choice: a site bigger than FIRST_SYNC_LIMIT, with no
 * scope ever chosen, and no library a finished sync left holding whole guides (a site that grows later
 * never loses what this computer has). Once waiting, it waits until the technician chooses, whatever the
 * first scope stored whole meanwhile.
 */
export function awaitsChoice(ctx: Pick<SyncContext, 'store' | 'scope' | 'scopeChosen'>): boolean {
  const { store } = ctx;
  if (ctx.scopeChosen() || ctx.scope().mode !== 'all') return false;
  if (store.settings.get(SCOPE_CHOICE_KEY, z.unknown()) !== undefined) return true;
  const { total, offline } = store.guides.count();
  const keptBySync = offline > 0 && store.settings.get(LAST_SYNC_KEY, z.number()) !== undefined;
  return !keptBySync && total > FIRST_SYNC_LIMIT;
}

/**
 * The scope this sync works to. While a big site waits for the first choice (awaitsChoice), it keeps
 * every summary (they are small, searchable), and whole only what is stored (one kept by "Keep offline"
 * while the listing ran stays) and the guides the technician worked on (worked-guides.ts), and records
 * that the technician has a choice to make.
 */
export function scopeToSync(ctx: Pick<SyncContext, 'store' | 'scope' | 'scopeChosen' | 'reader'>): OfflineScope {
  const { store } = ctx;
  if (!awaitsChoice(ctx)) {
    store.settings.delete(SCOPE_CHOICE_KEY);
    return ctx.scope();
  }
  store.settings.set(SCOPE_CHOICE_KEY, { guides: store.guides.count().total });
  const whole = new Set([...store.guides.wholeIds(FIRST_SYNC_LIMIT), ...workedGuides(store, ctx.reader)]);
  return { mode: 'selected', categories: [], guideids: [...whole] };
}

/** The choice waiting for the technician, if any (none once a scope is chosen). */
export function scopeChoice(store: Store, scopeChosen: boolean, reader: GuideReader | null): ScopeChoice | null {
  if (scopeChosen) return null;
  const pending = store.settings.get(SCOPE_CHOICE_KEY, z.object({ guides: z.number() }));
  return pending ? { guides: pending.guides, limit: FIRST_SYNC_LIMIT, worked: workedGuides(store, reader) } : null;
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
    const waiting =
      !chosen &&
      (store.settings.get(SCOPE_CHOICE_KEY, z.unknown()) !== undefined ||
        store.guides.count().total > FIRST_SYNC_LIMIT);
    return waiting ? { mode: 'selected', categories: [], guideids: [guideid] } : null;
  }
  return scope.guideids.includes(guideid) ? null : { ...scope, guideids: [...scope.guideids, guideid] };
}
