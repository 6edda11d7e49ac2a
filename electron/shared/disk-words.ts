/**
 * What frees room on a full disk, in one wording wherever a technician meets it: the core's refusals
 * (core/db/disk-space.ts), the step form's refused save and the sync centre's card. Written twice, they named
 * the remedy two ways ("empty the trash" on one screen, "the bin" on the next). `budget` says where the
 * storage budget is from where the words stand: below them in the sync centre.
 */
export function freeSomeSpace(budget: 'in the sync centre' | 'below' = 'in the sync centre'): string {
  return (
    'Free some space (empty the Recycle Bin or Trash, delete large files you no longer need, ' +
    `or lower the storage budget ${budget})`
  );
}

/**
 * What to do on a disk that cannot be written (turned read-only, failing): restart the computer. The restart loses
 * what the window holds and could not keep (its drafts are on that disk too), so writing that down comes first:
 * "Restart the computer" alone, under a refused Save, would have lost the typing it refused.
 */
export function writeDownThenRestart(what = 'anything you typed that is not saved'): string {
  return (
    `Keep this window open and write down ${what}; then restart the computer and type it in again. ` +
    'If this happens again, have its disk checked.'
  );
}
