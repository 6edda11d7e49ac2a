import { describe, expect, it } from 'vitest';
import { handedOverByGuideWords } from '../../src/lib/worklog-words.ts';

// The taker's list on a site that lists handed-over sessions guide by guide only (worklog/suspended-lists.ts).
describe('handedOverByGuideWords', () => {
  it('says which guides were asked, of how many, and where another one shows', () => {
    expect(handedOverByGuideWords({ asked: 3, known: 3 }, 2)).toBe(
      'From the 3 guides worked on or kept on this computer: this site lists them guide by guide. One handed ' +
        "over on another guide shows on that guide's page.",
    );
    expect(handedOverByGuideWords({ asked: 50, known: 212 }, 0)).toMatch(
      /^None on the 50 guides \(of 212\) worked on or kept on this computer: /,
    );
    expect(handedOverByGuideWords({ asked: 1, known: 1 }, 0)).toMatch(/^None on the 1 guide worked on /);
    expect(handedOverByGuideWords({ asked: 0, known: 0 }, 0)).toBe(
      'This site lists them guide by guide, and no guide is worked on or kept on this computer yet: one handed ' +
        "over shows on its guide's page.",
    );
  });
});
