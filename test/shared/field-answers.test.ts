import { describe, expect, it } from 'vitest';
import { answerWords, failingAnswer, isFailingOption, statedRange } from '../../electron/shared/field-answers.ts';
import { field } from '../helpers/fields.ts';

const numeric = (placeholder: string, options: string[] = []) =>
  field('Numeric Input', { label: 'Deflection', placeholder, options });

describe('a recorded value in words (issue 28)', () => {
  it('says Yes / No / Not answered for a checkbox, never 1 or 0', () => {
    const box = field('Checkbox');
    expect([answerWords(box, '1'), answerWords(box, '0'), answerWords(box, null)]).toEqual([
      'Yes',
      'No',
      'Not answered',
    ]);
    expect(answerWords(field('Text Input'), '  ')).toBe('Not answered');
    expect(answerWords(field('Numeric Input'), '12')).toBe('12');
  });
});

describe('a failing answer', () => {
  it('is a checkbox answered and left unticked; an unanswered one fails nothing', () => {
    const box = field('Checkbox', { label: 'Service and parking brakes hold' });
    expect(failingAnswer(box, '0')).toBe('not ticked');
    expect(failingAnswer(box, null)).toBeNull();
    expect(failingAnswer(box, '1')).toBeNull();
  });

  it('is an option such as Fail, No or one that takes the machine out of service', () => {
    for (const option of ['Fail', 'FAILED', 'No', 'No: worn', 'Cracked or bent: out of service', 'Unsafe', 'Not OK'])
      expect([option, isFailingOption(option)]).toEqual([option, true]);
    for (const option of ['Pass', 'Yes', 'Good', 'No leaks', 'None found', 'Worn: schedule a fork inspection'])
      expect([option, isFailingOption(option)]).toEqual([option, false]);
    const select = field('Select', { options: ['Good', 'Cracked or bent: out of service'] });
    expect(failingAnswer(select, 'Cracked or bent: out of service')).toBe('Cracked or bent: out of service');
    expect(failingAnswer(select, 'Good')).toBeNull();
  });

  it('is a number outside the range its placeholder or options state', () => {
    expect(statedRange(numeric('10–14 mm'))).toMatchObject({ min: 10, max: 14 });
    expect(statedRange(numeric('between 10 and 14'))).toMatchObject({ min: 10, max: 14 });
    expect(statedRange(numeric('10 to 14'))).toMatchObject({ min: 10, max: 14 });
    expect(statedRange(numeric('12 ± 2'))).toMatchObject({ min: 10, max: 14 });
    expect(statedRange(numeric('12 +/- 2.5'))).toMatchObject({ min: 9.5, max: 14.5 });
    expect(statedRange(numeric('min 90 psi'))).toMatchObject({ min: 90, max: null });
    expect(statedRange(numeric('at most 0,5'))).toMatchObject({ min: null, max: 0.5 });
    expect(statedRange(numeric('≥ 3'))).toMatchObject({ min: 3, max: null });
    expect(statedRange(numeric('', ['10', '14']))).toMatchObject({ min: 10, max: 14 });
    expect(statedRange(numeric('', ['min 10', 'max 14']))).toMatchObject({ min: 10, max: 14 });
    // A lone number is an example of what to type, not a range.
    for (const example of ['12', 'e.g. 1200', '0', ''])
      expect([example, statedRange(numeric(example))]).toEqual([example, null]);
    expect(statedRange(field('Text Input', { placeholder: '10–14' }))).toBeNull();

    const belt = numeric('10–14 mm');
    expect(failingAnswer(belt, '9')).toBe('9 is outside 10–14 mm');
    expect(failingAnswer(belt, '14')).toBeNull();
    expect(failingAnswer(belt, '10.5')).toBeNull();
    expect(failingAnswer(numeric('12'), '900')).toBeNull();
    // A range stated in words is quoted: a walk read "101 is outside between 70 and 95".
    expect(failingAnswer(numeric('between 70 and 95'), '101')).toBe(
      '101 is outside the stated range (between 70 and 95)',
    );
    expect(failingAnswer(numeric('45 ± 5'), '52')).toBe('52 is outside 45 ± 5');
  });
});
