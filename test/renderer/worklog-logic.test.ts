import { describe, expect, it } from 'vitest';
import type { StepValue } from '../../electron/contract.ts';
import { draftKey, makeDraft, settledBy, unsavedDrafts } from '../../src/drafts/keys.ts';
import { fieldProblem } from '../../electron/shared/field-values.ts';
import { formatDuration } from '../../src/lib/format.ts';
import { msToNextSecond } from '../../src/lib/site-clock.ts';
import { cleanInput, defaultValue, hintOf, shownValue, valuesToSave } from '../../src/lib/step-form.ts';
import { workOrderProblem } from '../../src/lib/workorder.ts';
import { field } from '../helpers/fields.ts';

describe('session times in words', () => {
  it('formats hours, minutes and seconds without wrapping past a day', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(61)).toBe('0:01:01');
    expect(formatDuration(3600 * 27 + 5)).toBe('27:00:05');
    expect(formatDuration(-4)).toBe('0:00:00');
  });

  it("waits for the site clock's next whole second, just past it, never for nothing", () => {
    expect(msToNextSecond(1_700_000_000.25)).toBe(751);
    expect(msToNextSecond(1_700_000_000.999)).toBe(2);
    expect(msToNextSecond(1_700_000_000)).toBe(1001);
    // A site clock behind this computer's by a fraction: the same rule on its own seconds.
    expect(msToNextSecond(99.5)).toBe(501);
  });
});

const saved = (fieldGuid: string, value: string | null, stepid = 5): StepValue => ({
  fieldGuid,
  fieldRevisionid: 1,
  stepid,
  value,
  attachment: null,
  site: 'sent',
  notSent: null,
  dropped: false,
  conflict: null,
  changedElsewhere: null,
});

describe('step form fields (reference 2.12)', () => {
  it('show placeholder in a Text Input and textarea in a Text Area, each ignoring the other', () => {
    expect(hintOf(field('Text Input', { placeholder: 'e.g. FL-07', textarea: 'ignored' }))).toBe('e.g. FL-07');
    expect(hintOf(field('Text Area', { placeholder: 'ignored', textarea: 'Anything unusual' }))).toBe(
      'Anything unusual',
    );
  });

  it('keep a Text Input on one line and let a Text Area hold line breaks', () => {
    expect(cleanInput(field('Text Input'), 'AX51\r\nspare')).toBe('AX51 spare');
    expect(cleanInput(field('Text Area'), 'one\ntwo')).toBe('one\ntwo');
    expect(fieldProblem(field('Text Input', { label: 'Part' }), 'a\nb')).toBe(
      'Part: a single line, without line breaks',
    );
    expect(fieldProblem(field('Text Area'), 'a\nb')).toBeNull();
  });

  it('check a Checkbox by default only when placeholder is 1, and leave any other one not answered', () => {
    expect(defaultValue(field('Checkbox', { placeholder: '1' }))).toBe('1');
    expect(defaultValue(field('Checkbox', { placeholder: '0' }))).toBeNull();
    expect(defaultValue(field('Checkbox', { placeholder: '' }))).toBeNull();
    expect(defaultValue(field('Text Input', { placeholder: '1' }))).toBeNull();
  });

  it('show what is typed over what is saved over the default', () => {
    const c = field('Checkbox', { placeholder: '1' });
    expect(shownValue(c, undefined, undefined)).toBe('1');
    expect(shownValue(c, saved(c.fieldGuid, '0'), undefined)).toBe('0');
    expect(shownValue(c, saved(c.fieldGuid, '0'), '1')).toBe('1');
  });

  it('save changed fields and unsaved defaults, never media fields or untouched empties', () => {
    const text = field('Text Input');
    const num = field('Numeric Input');
    const box = field('Checkbox', { placeholder: '1' });
    const image = field('Image');
    const area = field('Text Area');
    const out = valuesToSave(
      [text, num, box, image, area],
      new Map([[text.fieldGuid, saved(text.fieldGuid, 'same')]]),
      {
        [text.fieldGuid]: 'same',
        [num.fieldGuid]: ' 42 ',
        [image.fieldGuid]: 'x',
      },
    );
    expect(out).toEqual([
      { fieldGuid: num.fieldGuid, value: '42' },
      { fieldGuid: box.fieldGuid, value: '1' },
    ]);
    const cleared = valuesToSave([text], new Map([[text.fieldGuid, saved(text.fieldGuid, 'old')]]), {
      [text.fieldGuid]: '',
    });
    expect(cleared).toEqual([{ fieldGuid: text.fieldGuid, value: null }]);
  });

  it('want a one-line work order number of at most 100 characters', () => {
    expect(workOrderProblem('  ')).toBe('Enter the work order number.');
    expect(workOrderProblem('WO-1')).toBeNull();
    expect(workOrderProblem('x'.repeat(101))).not.toBeNull();
    expect(workOrderProblem('a\nb')).not.toBeNull();
  });
});

describe('draft keys', () => {
  const T = 'demo|3';
  it('keep technician, session, step and field apart whatever characters they hold', () => {
    expect(draftKey(T, 's', 1, 'a|2')).not.toBe(draftKey(T, 's', 12, 'a'));
    expect(draftKey(T, 's/1', 2, 'f')).not.toBe(draftKey(T, 's', 1, '2/f'));
    expect(draftKey(T, 's', 1, 'f')).toBe(draftKey(T, 's', 1, 'f'));
    expect(draftKey('demo|3', 's', 1, 'f')).not.toBe(draftKey('demo|4', 's', 1, 'f'));
    expect(draftKey('demo|3', 's', 1, 'f')).not.toBe(draftKey('demo', '3|s', 1, 'f'));
    expect(makeDraft(T, 's', 3, 'f', 'v', 9)).toMatchObject({ id: draftKey(T, 's', 3, 'f'), technician: T });
  });

  it('count as restored only drafts that differ from what the session holds', () => {
    const drafts = [
      makeDraft(T, 's', 5, 'a', 'typed'),
      makeDraft(T, 's', 5, 'b', 'same'),
      makeDraft(T, 's', 6, 'c', ''),
      makeDraft(T, 's', 6, 'd', 'new'),
    ];
    const unsaved = unsavedDrafts(drafts, [saved('a', 'older'), saved('b', 'same'), saved('c', null, 6)]);
    expect(unsaved.map((d) => d.fieldGuid)).toEqual(['a', 'd']);
  });

  it('drop after a save only the drafts whose value was sent, keeping typing that came later', () => {
    const drafts = [
      makeDraft(T, 's', 5, 'a', 'sent'),
      makeDraft(T, 's', 5, 'b', 'typed later'),
      makeDraft(T, 's', 5, 'n', ' 42'),
      makeDraft(T, 's', 6, 'a', 'sent'),
    ];
    const ids = settledBy(drafts, 5, [
      { fieldGuid: 'a', value: 'sent' },
      { fieldGuid: 'b', value: 'typed' },
      { fieldGuid: 'n', value: '42' },
    ]);
    expect(ids).toEqual([draftKey(T, 's', 5, 'a'), draftKey(T, 's', 5, 'n')]);
  });
});
