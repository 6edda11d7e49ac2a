import { describe, expect, it } from 'vitest';
import { attachmentWords, keptHereOnlyWords, onSiteWords, reviewPendingWords } from '../../src/lib/worklog-words.ts';
import { notOnSiteWords, type ShownValue } from '../../src/lib/session-summary.ts';

const session = { openConflicts: 0, failedActions: 0, pendingActions: 0, entryid: 7, values: [] };

describe("the session summary's On the site", () => {
  it('says a refused save beside what waits behind it, not "1 change still to send" alone', () => {
    // A session finished with a save the site refused: the finish waits behind it.
    expect(onSiteWords({ ...session, failedActions: 1, pendingActions: 1 })).toBe(
      'Not all: 1 failed in the sync centre, and 1 change still to send',
    );
    expect(onSiteWords({ ...session, openConflicts: 2 })).toBe('Not all: 2 conflicts in the sync centre');
    expect(onSiteWords({ ...session, pendingActions: 3 })).toBe('3 changes still to send');
  });

  it('says everything only when the site has it all', () => {
    expect(onSiteWords(session)).toBe('Everything has reached the site');
    expect(onSiteWords({ ...session, entryid: null })).toBe('Not on the site: kept on this computer only');
  });

  it('says a session deleted on the site is not on it, not "Saved work is on the site"', () => {
    // Its header said "Saved work is on the site" under "Deleted from the site's work log."
    expect(keptHereOnlyWords({ ...session, removedOnSite: 1_700_000_000_000 })).toBe(
      'Not on the site: kept on this computer only',
    );
    expect(onSiteWords({ ...session, removedOnSite: 1_700_000_000_000 })).toBe(
      'Not on the site: kept on this computer only',
    );
    expect(keptHereOnlyWords({ ...session, removedOnSite: null })).toBeNull();
  });

  it('says a sign-off kept here, the guide having no field for it, is not on the site', () => {
    const signOff = {
      name: 'Sam Okafor',
      how: 'typed',
      typed: 'Sam Okafor',
      drawingPng: null,
      at: 1,
      field: null,
    } as const;
    expect(onSiteWords({ ...session, signOff: { ...signOff, sentAs: 'kept-here' } })).toBe(
      'Everything but the sign-off, which stays on this computer (the site has no field for it)',
    );
    expect(onSiteWords({ ...session, signOff: { ...signOff, sentAs: 'step-data', field: 'Signed off by' } })).toBe(
      'Everything has reached the site',
    );
  });
});

describe("the Finish review's word on what reached the site", () => {
  it('never says everything reached the site beside an open conflict', () => {
    expect(reviewPendingWords({ failed: 0, pending: 0, conflicts: 0 })).toBe(
      'Everything saved so far has reached the site.',
    );
    // Said "Everything saved so far has reached the site." while the session's header said "1 conflict".
    expect(reviewPendingWords({ failed: 0, pending: 0, conflicts: 1 })).toBe(
      '1 conflict of this session waits for you in the sync centre: the site keeps its own value until you ' +
        'settle it. Settle it before you finish: once the session is finished, your value can no longer be sent, ' +
        'only copied.',
    );
    expect(reviewPendingWords({ failed: 0, pending: 2, conflicts: 0 })).toBe(
      '2 changes of this session wait to reach the site; they go when it answers.',
    );
    expect(reviewPendingWords({ failed: 1, pending: 1, conflicts: 2 })).toBe(
      'The site did not take 1 change of this session: it waits in the sync centre, and what follows waits ' +
        'behind. 2 conflicts of this session wait for you in the sync centre: the site keeps its own value until ' +
        'you settle them. Settle them before you finish: once the session is finished, your values can no longer ' +
        'be sent, only copied.',
    );
  });
});

describe('a value whose save was discarded', () => {
  it('is said in the Finish review: it will not reach the site (not "Everything saved so far has reached")', () => {
    expect(reviewPendingWords({ failed: 0, pending: 0, conflicts: 0, dropped: 1 })).toBe(
      "1 value of this session will not reach the site: it was discarded (a save, or a file's upload).",
    );
  });

  it('says a photo is not on the site and waits nowhere, not "see the sync centre"', () => {
    expect(attachmentWords({ uploaded: false, notSent: null }, 'refused', true)).toEqual({
      words: 'Not on the site, and no longer waiting to be sent',
      tone: 'bad',
    });
  });
});

describe('a value whose field the site dropped (kept here only)', () => {
  it('is not a conflict "whose value the site keeps" in the Finish review, and is said', () => {
    // Before: "1 conflict … the site keeps its own value until you settle it" (the site has no value there).
    expect(reviewPendingWords({ failed: 0, pending: 0, conflicts: 0, kept: 1 })).toBe(
      "1 value of this session stays on this computer only: the site's revised form no longer has its field.",
    );
  });

  it('counts in the summary as kept on this computer only', () => {
    const kept = { site: 'kept' as const };
    expect(onSiteWords({ ...session, values: [kept] as never })).toBe('Not all: 1 value kept on this computer only');
  });

  it('says a photo there is kept here, not "Uploaded, but the site did not take the step\'s save"', () => {
    expect(attachmentWords({ uploaded: true, notSent: null }, 'kept')).toEqual({
      words: 'Kept on this computer only',
      tone: 'warn',
    });
  });
});

describe('a value of the session summary the site does not have, marked on its row', () => {
  const shown = (site: ShownValue['site'], conflict = false): ShownValue => ({
    label: 'Notes',
    text: 'worn, replaced',
    fail: null,
    site,
    attachment: null,
    conflict,
    why: null,
    changedElsewhere: null,
  });
  it('says which, and nothing for a value sent or on its way', () => {
    expect(notOnSiteWords(shown('refused', true))).toBe('the site has another value: see the sync centre');
    expect(notOnSiteWords(shown('refused'))).toBe('the site did not take it');
    expect(notOnSiteWords(shown('kept'))).toBe('kept on this computer only');
    expect([notOnSiteWords(shown('sent')), notOnSiteWords(shown('waiting')), notOnSiteWords(shown(null))]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
