import { describe, expect, it } from 'vitest';
import { conflictValueWords } from '../../src/lib/conflict-words.ts';

describe('a conflict card says its values as a technician reads them', () => {
  it("says a checkbox's 1 and 0 as Yes and No (it showed 'Yours 0 / Before either change 1')", () => {
    const checkbox = { fieldType: 'Checkbox' as const };
    expect([conflictValueWords(checkbox, '0'), conflictValueWords(checkbox, '1')]).toEqual(['No', 'Yes']);
  });

  it('leaves other values as they are, and says nothing as "(empty)"', () => {
    expect(conflictValueWords({ fieldType: 'Numeric Input' }, '1')).toBe('1');
    expect(conflictValueWords({ fieldType: null }, '0')).toBe('0');
    expect(conflictValueWords({ fieldType: 'Checkbox' }, null)).toBe('(empty)');
  });
});
