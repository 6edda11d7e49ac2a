import { describe, expect, it } from 'vitest';
import type { StepForm } from '../../electron/contract.ts';
import type { SiteEntry } from '../../electron/core/api/work-log-api.ts';
import type { GuidesRepo } from '../../electron/core/db/repos/guides-repo.ts';
import { theirValues } from '../../electron/core/worklog/replay/adopt.ts';

// The site's values of an entry by field guid: every answer to a save is read through this, inside the
// transaction that records it. The guide's forms (a long guide has many to parse) are read only for a
// value the site names by its revision alone (an older server), and then once.
const form = (stepid: number, fields: [string, number][]): StepForm => ({
  formRevisionid: stepid * 10,
  stepid,
  fields: fields.map(([fieldGuid, fieldRevisionid]) => ({
    fieldGuid,
    fieldRevisionid,
    type: 'Text Input',
    label: fieldGuid,
    placeholder: '',
    textarea: '',
    options: [],
  })),
});
function guidesWith(forms: StepForm[]): { guides: GuidesRepo; reads: () => number } {
  let reads = 0;
  const guides = {
    formsOfGuide: (guideid: number) => {
      reads++;
      return guideid === 7 ? forms : [];
    },
  } as unknown as GuidesRepo;
  return { guides, reads: () => reads };
}
const entry = (values: SiteEntry['values']): SiteEntry => ({ values }) as unknown as SiteEntry;

describe("the site's values of an entry", () => {
  it('reads no forms when the site names every value by its field guid', () => {
    const { guides, reads } = guidesWith([form(1, [['truck', 11]])]);
    const values = theirValues(guides, 7, entry([{ fieldGuid: 'truck', fieldRevisionid: 11, value: 'FL-7' }]));
    expect([...values]).toEqual([['truck', 'FL-7']]);
    expect(reads()).toBe(0);
  });

  it('finds by revision, reading the forms once, what the site names by its revision alone', () => {
    const { guides, reads } = guidesWith([form(1, [['truck', 11]]), form(2, [['hours', 21]])]);
    const values = theirValues(
      guides,
      7,
      entry([
        { fieldGuid: null, fieldRevisionid: 11, value: 'FL-7' },
        { fieldGuid: null, fieldRevisionid: 21, value: '1200' },
        { fieldGuid: 'pins', fieldRevisionid: 31, value: 'Down' },
        { fieldGuid: null, fieldRevisionid: 99, value: 'a field no form has' },
      ]),
    );
    expect(Object.fromEntries(values)).toEqual({ truck: 'FL-7', hours: '1200', pins: 'Down' });
    expect(reads()).toBe(1);
  });
});
