import { describe, expect, it } from 'vitest';
import { siteRevisionWords } from '../../src/lib/worklog-words.ts';

// Where the site keeps a session's entry, said when it is not the revision the session follows here.
describe('the guide revision the site keeps a session on, in words', () => {
  it('says nothing while the site has not said, or keeps it on the revision the session follows', () => {
    expect(siteRevisionWords({ guideRevisionid: 10, siteGuideRevisionid: null })).toBeNull();
    expect(siteRevisionWords({ guideRevisionid: 10, siteGuideRevisionid: 10 })).toBeNull();
  });

  it('says the site keeps it on the guide as revised, or on an earlier revision', () => {
    expect(siteRevisionWords({ guideRevisionid: 10, siteGuideRevisionid: 17 })).toBe(
      'The site keeps this session on the guide as revised (its start reached the site after the change): whoever ' +
        'reads it there sees the revised steps, and fields this session did not ask for unanswered.',
    );
    expect(siteRevisionWords({ guideRevisionid: 17, siteGuideRevisionid: 10 })).toBe(
      'The site keeps this session on an earlier revision of the guide than the one it follows here: whoever reads ' +
        "it there sees that revision's steps and fields, not the ones this session showed.",
    );
  });
});
