import { describe, expect, it } from 'vitest';
import type { GuideStep } from '../../electron/contract.ts';
import { prerequisiteOf, stepSections, timeRangeText } from '../../src/lib/guide-sections.ts';

const step = (stepid: number, guideid: number): GuideStep => ({
  stepid,
  guideid,
  revisionid: 1,
  orderby: stepid,
  title: `Step ${stepid}`,
  lines: [],
  media: { type: 'none' },
  form: null,
});

const guide = {
  guideid: 11,
  prerequisites: [
    { guideid: 1, title: 'Lockout' },
    { guideid: 10, title: 'Pre-shift inspection' },
  ],
  steps: [step(1, 1), step(2, 1), step(20, 10), step(110, 11), step(111, 11)],
};

describe('a guide read with its prerequisites', () => {
  it("is in sections: each prerequisite under its title, then the guide's own, numbered through as a session", () => {
    const sections = stepSections(guide);
    expect(
      sections.map((s) => [s.guideid, s.prerequisite, s.steps.map((x) => [x.step.stepid, x.index, x.number])]),
    ).toEqual([
      [
        1,
        'Lockout',
        [
          [1, 0, 1],
          [2, 1, 2],
        ],
      ],
      [10, 'Pre-shift inspection', [[20, 2, 3]]],
      [
        11,
        null,
        [
          [110, 3, 4],
          [111, 4, 5],
        ],
      ],
    ]);
    expect(prerequisiteOf(guide, guide.steps[2]!)).toBe('Pre-shift inspection');
    expect(prerequisiteOf(guide, guide.steps[3]!)).toBeNull();
  });

  it('has one section when it has no prerequisites', () => {
    expect(stepSections({ guideid: 5, prerequisites: [], steps: [step(7, 5), step(8, 5)] })).toHaveLength(1);
  });

  it('says the time it takes in words', () => {
    expect(timeRangeText({ min: 1200, max: 2400 })).toBe('20–40 minutes');
    expect(timeRangeText({ min: 3600, max: 3600 })).toBe('about 60 minutes');
    expect(timeRangeText({ min: 60, max: 60 })).toBe('about 1 minute');
    expect(timeRangeText({ min: 7200, max: 14400 })).toBe('2–4 hours');
    expect(timeRangeText({ min: 3600, max: 7200 })).toBe('1–2 hours');
  });
});
