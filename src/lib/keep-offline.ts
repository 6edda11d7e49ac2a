import type { SyncState } from '../../electron/contract.ts';

/**
 * Whether the sync keeps this guide whole: the scope names it (every guide, its own id, or its category),
 * and the scope is one the sync works to. A big site waiting for its first choice lists "everything" as
 * its scope yet keeps no whole guide (sync/first-scope.ts): there a guide is not kept until chosen.
 * Categories are not known here: a guide kept by its category is stored already, so this asks only for
 * the guides the page may offer to keep.
 */
export function keptByScope(state: SyncState | null, guideid: number): boolean {
  if (!state || state.scopeChoice !== null) return false;
  return state.scope.mode === 'all' || state.scope.guideids.includes(guideid);
}
