import { describe, expect, it } from 'vitest';
import { DISK_FAILED_MESSAGE } from '../../electron/core/db/disk-space.ts';
import { fileRefusedWords, saveRefusedWords } from '../../src/lib/worklog-words.ts';

const full = { code: 'storage_full' as const, message: 'The disk is full, so Fieldguide cannot save this. …' };

describe("a step's refused save in words", () => {
  it('on a full disk: not saved, where the typing is, what to do; never "save this step now"', () => {
    const onScreen = saveRefusedWords(full, true);
    expect(onScreen).toMatch(/^Not saved\. The disk is full\. /);
    expect(onScreen).toContain('What you typed is still in the form, and not lost while this window stays open.');
    expect(onScreen).toMatch(/Free some space \(.*\), then press Save again\.$/);
    // Kept as drafts (the window's files on another disk): they outlast the window.
    expect(saveRefusedWords(full, false)).toContain('What you typed is kept on this computer.');
    expect(saveRefusedWords(full, false)).not.toContain('while this window stays open');
  });

  it('on a disk that cannot be written: write down what is typed, the window open, before the restart', () => {
    // "Restart the computer", the core's words, stood under the refused Save: a restart loses the typing the
    // window holds, its drafts on the same disk. Nothing more saves until then: no "Save again".
    const failed = { code: 'storage_failed' as const, message: DISK_FAILED_MESSAGE };
    const onScreen = saveRefusedWords(failed, true);
    expect(onScreen).toMatch(/^Not saved\. This computer cannot write to its disk \(it has turned read-only /);
    expect(onScreen).toContain('nothing more saves until the computer restarts; everything saved before is kept.');
    expect(onScreen).toContain('What you typed is still in the form, and lost when this window closes.');
    const writeDown = onScreen.indexOf('Keep this window open and write down what you typed; then restart');
    expect(writeDown).toBeGreaterThan(0);
    expect(onScreen.indexOf('restart the computer')).toBeGreaterThan(writeDown);
    expect(onScreen).not.toMatch(/Save again|try again/i);
    expect(saveRefusedWords(failed, false)).toContain('its draft may be lost with the disk.');
    // The core's own words for any refused action on that disk: the typing written down before the restart too.
    expect(DISK_FAILED_MESSAGE.indexOf('write down')).toBeLessThan(DISK_FAILED_MESSAGE.indexOf('restart the computer'));
    expect(DISK_FAILED_MESSAGE.indexOf('write down')).toBeGreaterThan(0);
  });

  it('says first what did not happen, then the reason the core gave', () => {
    const ended = { code: 'invalid_transition' as const, message: 'This session is finished.' };
    expect(saveRefusedWords(ended, true)).toBe('Not saved. This session is finished.');
  });
  it("a step's file refused says first what did not happen, the Remove as the attach", () => {
    // A refused Remove said the core's reason alone, beside the photo still shown.
    expect(fileRefusedWords('remove', full.message)).toBe(`Not removed. ${full.message}`);
    expect(fileRefusedWords('attach', full.message)).toBe(`Not attached. ${full.message}`);
  });
});
