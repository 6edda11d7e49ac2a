import { describe, expect, it } from 'vitest';
import type { GuideStep, StepFormField, StepValue } from '../../electron/contract.ts';
import { makeDraft } from '../../src/drafts/keys.ts';
import { reviewSession } from '../../src/lib/session-review.ts';
import { formatDateTime } from '../../src/lib/format.ts';
import { changedElsewhereWords, notAnswered, summarySteps } from '../../src/lib/session-summary.ts';
import { valuesToSave } from '../../src/lib/step-form.ts';
import { field } from '../helpers/fields.ts';

const step = (stepid: number, fields: StepFormField[] | null, title = `Step ${stepid}`): GuideStep => ({
  stepid,
  guideid: 1,
  revisionid: 1,
  orderby: stepid,
  title,
  lines: [],
  media: { type: 'none' } as GuideStep['media'],
  form: fields ? { formRevisionid: 1, stepid, fields } : null,
});
const value = (stepid: number, fieldGuid: string, v: string | null): StepValue => ({
  fieldGuid,
  fieldRevisionid: 1,
  stepid,
  value: v,
  attachment: null,
  site: 'sent',
  notSent: null,
  dropped: false,
  conflict: null,
  changedElsewhere: null,
});
const truck = field('Text Input', { fieldGuid: 'truck', label: 'Truck number' });
const hours = field('Numeric Input', { fieldGuid: 'hours', label: 'Hour meter' });
const brakes = field('Checkbox', { fieldGuid: 'brakes', label: 'Brakes hold', placeholder: '0' });
const steps = [
  step(1, [truck, hours]),
  step(2, null),
  step(3, [brakes]),
  step(4, [field('Image', { fieldGuid: 'photo', label: 'Photo' })]),
];

describe('the Finish review (issue 16)', () => {
  it('lists the steps with empty fields, and nothing typed when everything is saved', () => {
    const review = reviewSession(steps, [value(1, 'truck', 'FL-07')], []);
    expect(review.emptySteps.map((s) => [s.number, s.empty])).toEqual([
      [1, ['Hour meter']],
      [3, ['Brakes hold']],
      [4, ['Photo']],
    ]);
    expect(review.draftSteps).toEqual([]);
    expect(review.saves).toEqual([]);
  });

  it('lists a value saved here and replaced elsewhere since, in words, unless typed again here', () => {
    const replaced = (v: StepValue, was: string): StepValue => ({ ...v, changedElsewhere: { was, at: 1_700_000_000 } });
    const values = [replaced(value(1, 'truck', 'FL-THERE'), 'FL-HERE'), replaced(value(3, 'brakes', '0'), '1')];
    expect(reviewSession(steps, values, []).changed).toEqual([
      { number: 1, stepid: 1, title: 'Step 1', label: 'Truck number', now: 'FL-THERE', was: 'FL-HERE' },
      { number: 3, stepid: 3, title: 'Step 3', label: 'Brakes hold', now: 'No', was: 'Yes' },
    ]);
    const typedAgain = makeDraft('t', 's', 1, 'truck', 'FL-AGAIN');
    expect(reviewSession(steps, values, [typedAgain]).changed.map((c) => c.label)).toEqual(['Brakes hold']);
    expect(reviewSession(steps, [value(1, 'truck', 'FL-07')], []).changed).toEqual([]);
  });

  it("does not ask for the guide's sign-off field, but asks for a prerequisite's like any other field", () => {
    const signed = (fieldGuid: string) => field('Text Input', { fieldGuid, label: 'Signed off by' });
    // The inspection (guide 2) comes first, its "Signed off by" signs off the inspection: the technician types it.
    const inspection = { ...step(7, [signed('inspected')], 'Sign the checklist'), guideid: 2 };
    const own = [inspection, step(1, [truck])];
    expect(reviewSession(own, [value(1, 'truck', 'FL-07')], []).emptySteps.map((s) => [s.number, s.empty])).toEqual([
      [1, ['Signed off by']],
    ]);
    const withOwn = [...own, step(9, [signed('job')], 'Sign off the job')];
    const review = reviewSession(withOwn, [value(1, 'truck', 'FL-07'), value(7, 'inspected', 'Sam')], []);
    expect(review.emptySteps).toEqual([]);
  });

  it('lists a draft left on another step and saves it on confirmation, typed fields only', () => {
    const drafts = [makeDraft('t', 's', 3, 'brakes', '1'), makeDraft('t', 's', 1, 'truck', 'FL-07')];
    const review = reviewSession(steps, [], drafts);
    expect(review.draftSteps.map((s) => s.number)).toEqual([1, 3]);
    expect(review.saves).toEqual([
      { stepid: 1, values: [{ fieldGuid: 'truck', value: 'FL-07' }] },
      { stepid: 3, values: [{ fieldGuid: 'brakes', value: '1' }] },
    ]);
    expect(review.emptySteps.map((s) => s.number)).toEqual([1, 4]);
  });

  it('lists a value whose save the site refused, unless it is typed again (saved first, in its place)', () => {
    const refusedWith = (notSent: string) => ({ ...value(1, 'hours', '250000'), site: 'refused' as const, notSent });
    const refused = refusedWith('Hour meter: a number below 100000.');
    const review = reviewSession(steps, [value(1, 'truck', 'FL-07'), refused], []);
    expect(review.refused).toEqual([
      { number: 1, stepid: 1, title: 'Step 1', label: 'Hour meter', problem: 'Hour meter: a number below 100000' },
    ]);
    // The site's words name the field once, whether it named it or not.
    expect(reviewSession(steps, [refusedWith('Too large')], []).refused[0]?.problem).toBe('Hour meter: Too large');
    expect(reviewSession(steps, [refused], [makeDraft('t', 's', 1, 'hours', '2500')]).refused).toEqual([]);
  });

  it('does not send the technician to a field the site takes no file for', () => {
    // A walk on a site that takes pictures only: "Steps with fields not answered" listed the Video field, and led to
    // a step that says it cannot be filled in from here; the summary and the report counted it as not answered.
    const video = field('Video', { fieldGuid: 'video', label: 'Video of the horn test' });
    const withVideo = [...steps, step(5, [video], 'Test the horn')];
    const saved = [value(1, 'truck', 'FL-07'), value(1, 'hours', '12'), value(3, 'brakes', '1')];
    const photo = { ...value(4, 'photo', null), attachment: { id: 'a', name: 'p.jpg', mime: 'image/jpeg' } };
    const all = [...saved, photo as StepValue];
    expect(reviewSession(withVideo, all, []).emptySteps.map((s) => s.number)).toEqual([5]);
    expect(reviewSession(withVideo, all, [], [], true).emptySteps).toEqual([]);
    const rows = summarySteps(withVideo, all, undefined, true);
    expect(rows[4]!.values[0]!.text).toBe('Cannot be filled in here: the site takes pictures only');
    expect(notAnswered(rows)).toBe(0);
    expect(notAnswered(summarySteps(withVideo, all))).toBe(1);
  });

  it('holds back a draft the site would refuse, with the reason, and does not count saved drafts', () => {
    const drafts = [makeDraft('t', 's', 1, 'hours', 'about 1200'), makeDraft('t', 's', 3, 'brakes', '1')];
    const review = reviewSession(steps, [value(3, 'brakes', '1')], drafts);
    expect(review.draftSteps.map((s) => [s.number, s.problem])).toEqual([[1, 'Hour meter: a number, like 12 or 3.5']]);
    expect(review.saves).toEqual([]);
  });
});

describe('leaving a step', () => {
  it('by Next, the list or Previous: an untouched checkbox is not answered, never recorded as No', () => {
    expect(valuesToSave([brakes, truck], new Map(), {}, true)).toEqual([]);
    expect(valuesToSave([brakes, truck], new Map(), {})).toEqual([]);
    // Ticked then unticked is an answer: No.
    expect(valuesToSave([brakes], new Map(), { brakes: '0' })).toEqual([{ fieldGuid: 'brakes', value: '0' }]);
    expect(valuesToSave([brakes, truck], new Map(), { truck: 'FL-1' }, true)).toEqual([
      { fieldGuid: 'truck', value: 'FL-1' },
    ]);
  });
});

describe('the session summary', () => {
  it('shows every field of every step with a form, in words', () => {
    const rows = summarySteps(steps, [value(1, 'truck', 'FL-07'), value(3, 'brakes', '1')]);
    expect(rows.map((r) => [r.number, r.values.map((v) => `${v.label}=${v.text}`)])).toEqual([
      [1, ['Truck number=FL-07', 'Hour meter=Not answered']],
      [2, []],
      [3, ['Brakes hold=Yes']],
      [4, ['Photo=Not answered']],
    ]);
    expect(rows[1]!.hasForm).toBe(false);
  });

  it('says why a value is not on the site: the site refused it (its words), another value, or discarded', () => {
    // The report listed them under "Not sent" with no reason (a walk of the end of the day).
    const refused = { ...value(1, 'truck', 'FL-07'), site: 'refused' as const, notSent: 'one of: FL-01, FL-02' };
    const theirs = {
      ...value(1, 'hours', '12'),
      site: 'refused' as const,
      conflict: { id: 1, theirs: '14', offForm: false, message: 'Changed on the site' },
    };
    const dropped = { ...value(3, 'brakes', '1'), site: 'refused' as const, dropped: true };
    const why = summarySteps(steps, [refused, theirs, dropped]).flatMap((r) => r.values.map((v) => v.why));
    expect(why).toEqual([
      'The site did not take it: one of: FL-01, FL-02',
      'The site has another value: see the sync centre.',
      'Not sent, and no longer waiting to be sent.',
      null,
    ]);
    expect(summarySteps(steps, [value(1, 'truck', 'FL-07')])[0]!.values[0]!.why).toBeNull();
  });

  it('says under a value saved here and replaced elsewhere since what was saved, in words, and when seen', () => {
    // The report showed the site's FL-THERE as if typed here, the technician's FL-HERE nowhere.
    const at = 1_700_000_000;
    const values = [
      { ...value(1, 'truck', 'FL-THERE'), changedElsewhere: { was: 'FL-HERE', at } },
      { ...value(3, 'brakes', '0'), changedElsewhere: { was: '1', at } },
      value(1, 'hours', '12'),
    ];
    const shown = summarySteps(steps, values).flatMap((r) => r.values.map((v) => v.changedElsewhere));
    expect(shown).toEqual([{ was: 'FL-HERE', at }, null, { was: 'Yes', at }, null]);
    expect(changedElsewhereWords(shown[2]!)).toBe(
      `Saved here as "Yes", then changed on another computer or the site (seen ${formatDateTime(at)}).`,
    );
  });

  it("names the guide's parts where each begins: its prerequisites', then its own", () => {
    // A walk on a guide with two prerequisites: the report ran 1 to 30, nothing said which were whose.
    const [lockout, inspection, own] = [{ guideid: 5 }, { guideid: 6 }, { guideid: 9 }];
    const parted = steps.map((s, i) => ({ ...s, ...[lockout, inspection, inspection, own][i] }));
    const guide = {
      guideid: 9,
      prerequisites: [
        { guideid: 5, title: 'Lockout' },
        { guideid: 6, title: 'Pre-shift inspection' },
      ],
    };
    expect(summarySteps(parted, [], guide).map((r) => [r.number, r.part])).toEqual([
      [1, 'Before you begin: Lockout'],
      [2, 'Before you begin: Pre-shift inspection'],
      [3, null],
      [4, 'Steps of this guide'],
    ]);
    // A guide without prerequisites has no parts to name.
    expect(summarySteps(steps, [], { guideid: 9, prerequisites: [] }).map((r) => r.part)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('marks a failing answer with its reason, and says where each recorded value is', () => {
    const rows = summarySteps(steps, [
      { ...value(1, 'truck', 'FL-07'), site: 'sent' },
      { ...value(3, 'brakes', '0'), site: 'refused' },
    ]);
    const brakesRow = rows[2]!.values[0]!;
    expect([brakesRow.text, brakesRow.fail, brakesRow.site]).toEqual(['No', 'not ticked', 'refused']);
    expect(rows[0]!.values.map((v) => [v.fail, v.site])).toEqual([
      [null, 'sent'],
      [null, null],
    ]);
  });
});

describe("the session summary's times", () => {
  it("reads the sign-off's UTC time in local time, and leaves a time the technician typed as typed", () => {
    const signed = field('Text Input', { fieldGuid: 'signed', label: 'Signed off by' });
    const withSignOff = [...steps, step(5, [signed], 'Sign the checklist')];
    const at = Date.UTC(2026, 10, 30, 14, 0) / 1000;
    const rows = summarySteps(withSignOff, [
      value(1, 'truck', 'Last service 2026-11-30 14:00 UTC'),
      value(5, 'signed', 'Signed off by Sam Okafor (confirmed by typing their name) at 2026-11-30 14:00 UTC'),
    ]);
    expect(rows[0]!.values[0]!.text).toBe('Last service 2026-11-30 14:00 UTC');
    expect(rows[4]!.values[0]!.text).toBe(
      `Signed off by Sam Okafor (confirmed by typing their name) at ${formatDateTime(at)}`,
    );
  });
});

describe('the Finish review of failing answers (issue 28)', () => {
  it('lists failed items first, saved or typed, with their steps; an untouched checkbox is not answered', () => {
    const fork = field('Select', {
      fieldGuid: 'fork',
      label: 'Fork condition',
      options: ['Good', 'Cracked or bent: out of service'],
    });
    const withFork = [...steps, step(5, [fork], 'Forks')];
    const untouched = reviewSession(withFork, [], []);
    expect(untouched.failed).toEqual([]);
    expect(untouched.emptySteps.map((s) => s.number)).toContain(3);
    const review = reviewSession(
      withFork,
      [value(3, 'brakes', '0')],
      [makeDraft('t', 's', 5, 'fork', 'Cracked or bent: out of service')],
    );
    expect(review.failed.map((f) => [f.number, f.label, f.answer, f.reason])).toEqual([
      [3, 'Brakes hold', 'No', 'not ticked'],
      [5, 'Fork condition', 'Cracked or bent: out of service', 'Cracked or bent: out of service'],
    ]);
  });
});
