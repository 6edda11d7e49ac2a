import { describe, expect, it } from 'vitest';
import { unreadableSessionsWords } from '../../src/lib/worklog-words.ts';

// Sessions the site listed that this version cannot read: said under the sessions it could read, or alone.
describe('sessions the site listed that could not be read, in words', () => {
  it('counts them as more under readable rows, and alone without "more"', () => {
    expect(unreadableSessionsWords(1, true)).toBe(
      '1 more session on the site could not be read, so it is not shown here. ' +
        "Take it over on the site, or tell your site's administrator.",
    );
    expect(unreadableSessionsWords(1, false)).toMatch(/^1 session on the site could not be read, so it is not/);
    expect(unreadableSessionsWords(3, true)).toMatch(
      /^3 more sessions on the site could not be read, so they are not shown here\. Take them over on the site/,
    );
    expect(unreadableSessionsWords(2, false)).toMatch(/^2 sessions on the site could not be read, so they are/);
  });
});
