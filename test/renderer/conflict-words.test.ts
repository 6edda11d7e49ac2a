import { describe, expect, it } from 'vitest';
import { SITE_DECIDED } from '../../electron/shared/site-decided.ts';
import {
  conflictStepWords,
  conflictValueWords,
  fieldConflictWords,
  understoodWords,
} from '../../src/lib/conflict-words.ts';

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

  it("says a file field's value (the site's media item number) as the file it is", () => {
    expect(conflictValueWords({ fieldType: 'Image' }, '4312')).toBe('A photo');
    expect(conflictValueWords({ fieldType: 'Document' }, '77')).toBe('A document');
  });

  it('names the step as the run numbers it', () => {
    expect(conflictStepWords({ step: { number: 4, title: 'Fork condition' } })).toBe('Step 4: Fork condition');
    expect(conflictStepWords({ step: { number: 2, title: '' } })).toBe('Step 2');
    expect(conflictStepWords({ step: null })).toBeNull();
  });
});

describe("a step's field in conflict says so where the technician reads it", () => {
  const open = { id: 1, message: '', offForm: false };
  it("says what the site has, in the field's own words", () => {
    expect(fieldConflictWords({ ...open, theirs: '0' }, 'Checkbox')).toBe(
      'Changed on the site too: it has "No" there.',
    );
    expect(fieldConflictWords({ ...open, theirs: null }, 'Text Input')).toBe(
      'Changed on the site too: it is empty there.',
    );
  });

  it('says a field the site dropped keeps its value here only', () => {
    expect(fieldConflictWords({ ...open, offForm: true, theirs: null }, 'Image')).toMatch(
      /no longer has this field: what you attached is kept on this computer only/,
    );
    expect(fieldConflictWords({ ...open, offForm: true, theirs: null }, 'Text Area')).toMatch(/what you entered/);
  });
});

describe('the button that reads and closes a card', () => {
  const card = (kind: 'field' | 'transition' | 'notice', label = 'Truck number', offForm = false) => ({
    kind,
    label,
    offForm,
  });

  it("says a session removed on the site as understood, not 'keep the site's state' (the site has none)", () => {
    expect(understoodWords(card('transition', SITE_DECIDED.removed))).toBe('Understood');
  });

  it("keeps the site's state or value where the site has one", () => {
    expect(understoodWords(card('transition', SITE_DECIDED.cancelled))).toBe("Understood, keep the site's state");
    expect(understoodWords(card('field'))).toBe("Understood, keep the site's value");
    expect(understoodWords(card('field', 'Truck number', true))).toBe('Understood');
    expect(understoodWords(card('notice'))).toBe('Understood');
  });
});
