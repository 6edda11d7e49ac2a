import { describe, expect, it } from 'vitest';
import { fieldProblem } from '../../electron/shared/field-values.ts';
import { field } from '../helpers/fields.ts';

describe('field values, as the form and the App API both check them (reference 2.12)', () => {
  it('check a Numeric Input as a number', () => {
    const n = field('Numeric Input', { label: 'Hour meter' });
    for (const ok of ['12', '3.5', '-4', ' 1200 ']) expect(fieldProblem(n, ok)).toBeNull();
    for (const bad of ['12a', '3,5', '.5', '1e3'])
      expect(fieldProblem(n, bad)).toBe('Hour meter: a number, like 12 or 3.5');
    expect(fieldProblem(n, '')).toBeNull();
  });

  it('accept only listed options for Radios and Select', () => {
    const r = field('Radios', { label: 'Look', options: ['Clear', 'Rusty'] });
    expect(fieldProblem(r, 'Rusty')).toBeNull();
    expect(fieldProblem(r, 'Green')).toBe('Look: one of Clear, Rusty');
    expect(fieldProblem(field('Select', { options: ['Good'] }), 'Bad')).not.toBeNull();
  });
});
