import { describe, expect, it } from 'vitest';
import { STORAGE_FULL_MESSAGE } from '../../electron/core/db/disk-space.ts';
import { freeSomeSpace } from '../../electron/shared/disk-words.ts';
import { saveRefusedWords } from '../../src/lib/worklog-words.ts';

// One remedy for a full disk, wherever the technician meets it: the core's refusals said "empty the trash",
// the sync centre's card "the bin". The sync centre's card takes the same words (house-words.test.ts finds
// any other wording of them).
describe('the remedy for a full disk', () => {
  it("reads the same in the core's refusals and in a refused save on the screen", () => {
    expect(STORAGE_FULL_MESSAGE).toBe(
      'The disk is full, so Fieldguide cannot save this. Nothing already saved is lost. ' +
        'Free some space (empty the Recycle Bin or Trash, or delete large files you no longer need), then try again.',
    );
    expect(STORAGE_FULL_MESSAGE).toContain(freeSomeSpace());
    const refused = saveRefusedWords({ code: 'storage_full', message: STORAGE_FULL_MESSAGE }, true);
    expect(refused).toContain(`${freeSomeSpace()}, then press Save again.`);
  });

  it('names nothing that frees no room: not the storage budget, which keeps what the kept guides need', () => {
    expect(freeSomeSpace()).not.toMatch(/storage budget|sync centre/);
  });
});
