import { describe, expect, it } from 'vitest';
import { saveRefusedWords } from '../../src/lib/worklog-words.ts';

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

  it('says first what did not happen, then the reason the core gave', () => {
    const ended = { code: 'invalid_transition' as const, message: 'This session is finished.' };
    expect(saveRefusedWords(ended, true)).toBe('Not saved. This session is finished.');
  });
});
