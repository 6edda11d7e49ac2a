import { describe, expect, it } from 'vitest';
import { onSiteWords } from '../../src/lib/worklog-words.ts';

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
});
