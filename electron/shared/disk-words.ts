/**
 * What frees room on a full disk, in one wording wherever a technician meets it: the core's refusals
 * (core/db/disk-space.ts), the step form's refused save and the sync centre's card. Written twice, they named
 * the remedy two ways ("empty the trash" on one screen, "the bin" on the next). It named "lower the storage
 * budget" too, which frees nothing a kept guide needs (budget.ts evicts only media no stored guide needs) and is
 * itself refused once the disk is full: a technician sent there came back to the same refusal.
 */
export function freeSomeSpace(): string {
  return 'Free some space (empty the Recycle Bin or Trash, or delete large files you no longer need)';
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
