import { describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { fieldsWords, formChanges } from '../../src/lib/form-changes.ts';

const guide = (steps: [string, string][][]) =>
  ({
    steps: steps.map((fields, i) => ({
      stepid: i + 1,
      form: fields.length
        ? { fields: fields.map(([fieldGuid, label]) => ({ fieldGuid, label, type: 'Text Input' })) }
        : null,
    })),
  }) as unknown as GuideDetail;

describe("what the site's revised forms ask for that a session's revision does not", () => {
  it('names added and dropped fields with their steps; a renamed field is the same field', () => {
    const session = guide([[], [['notes', 'Notes']], [['photo', 'Photo of the valve']]]);
    const site = guide([[['psi', 'Tank pressure (psi)']], [['notes', 'Remarks']], []]);
    expect(formChanges(session, site)).toEqual({
      added: [{ label: 'Tank pressure (psi)', step: 1 }],
      removed: [{ label: 'Photo of the valve', step: 3 }],
    });
  });

  it('says them in a sentence', () => {
    expect(fieldsWords([{ label: 'A', step: 1 }])).toBe('A (step 1)');
    expect(
      fieldsWords([
        { label: 'A', step: 1 },
        { label: 'B', step: 2 },
        { label: 'C', step: 4 },
      ]),
    ).toBe('A (step 1), B (step 2) and C (step 4)');
  });
});
