import { describe, expect, it } from 'vitest';
import { attachmentWords, refusedValueWords } from '../../src/lib/worklog-words.ts';

describe('an attached file in words', () => {
  it('says uploaded only once the step that names it reached the site; before that, what waits', () => {
    expect(attachmentWords({ uploaded: false, notSent: null }, 'waiting')).toEqual({
      words: 'Kept here, not uploaded yet',
      tone: 'warn',
    });
    // The file is on the site, the save that puts it in the session is not: not yet part of the record.
    expect(attachmentWords({ uploaded: true, notSent: null }, 'waiting')).toEqual({
      words: "Uploaded; the step's save is not sent yet",
      tone: 'warn',
    });
    expect(attachmentWords({ uploaded: true, notSent: null }, 'sent')).toEqual({ words: 'Uploaded', tone: 'ok' });
  });

  it('says where to settle a save or an upload the site did not take', () => {
    expect(attachmentWords({ uploaded: true, notSent: null }, 'refused')).toEqual({
      words: "Uploaded, but the site did not take the step's save: see the sync centre",
      tone: 'bad',
    });
    expect(attachmentWords({ uploaded: false, notSent: null }, 'refused')).toEqual({
      words: 'Not sent: see the sync centre',
      tone: 'bad',
    });
  });

  it("says why a file's upload failed, not that it uploads when online, while a save waits behind it", () => {
    const notSent = 'The site did not take the file horn.mp4: The file is larger than 25 MiB. Attach another…';
    expect(attachmentWords({ uploaded: false, notSent }, 'refused')).toEqual({ words: notSent, tone: 'bad' });
  });
});

describe('a value the site did not take', () => {
  it("says the site's words and what to do: change it while the session is open, discard it once ended", () => {
    const words = 'Hour meter: a number, like 12 or 3.5.';
    expect(refusedValueWords(words, true)).toBe(
      'The site did not take this value: Hour meter: a number, like 12 or 3.5. Change it and save again, or ' +
        'discard the save in the sync centre; the rest of the session waits until then.',
    );
    expect(refusedValueWords(words, false)).toBe(
      'The site did not take this value: Hour meter: a number, like 12 or 3.5. The session has ended, so it ' +
        'cannot be changed: discard the save in the sync centre to send the rest of it.',
    );
  });
});
