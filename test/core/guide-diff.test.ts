import { describe, expect, it } from 'vitest';
import type { GuideDetail, GuideStep } from '../../electron/contract.ts';
import { guideDiff, plainText } from '../../electron/core/changes/guide-diff.ts';

const step = (stepid: number, lines: string[], images: number[] = [], guideid = 1): GuideStep => ({
  stepid,
  guideid,
  revisionid: 1,
  orderby: stepid,
  title: `Step ${stepid}`,
  lines: lines.map((text) => ({ lineid: null, bullet: 'black', level: 0, textRendered: text })),
  media: images.length ? { type: 'image', images: images.map((id) => ({ id })) } : { type: 'none' },
  form: null,
});
const guide = (steps: GuideStep[]) => ({ guideid: 1, steps }) as unknown as GuideDetail;

describe('what changed between two revisions of a guide', () => {
  it('names added, removed and changed steps by their numbers, with lines and new pictures', () => {
    const before = guide([step(9, ['Prerequisite'], [], 2), step(1, ['Unplug it.']), step(2, ['Old way.'], [5])]);
    const after = guide([step(1, ['<p>Unplug <b>it</b>.</p>']), step(3, ['New step.']), step(2, ['New way.'], [5, 6])]);
    expect(guideDiff(before, after)).toEqual([
      {
        kind: 'added',
        number: 2,
        title: 'Step 3',
        addedLines: ['New step.'],
        removedLines: [],
        newPictures: 0,
        addedFields: [],
        removedFields: [],
        renamedFields: [],
      },
      {
        kind: 'changed',
        number: 3,
        title: 'Step 2',
        addedLines: ['New way.'],
        removedLines: ['Old way.'],
        newPictures: 1,
        addedFields: [],
        removedFields: [],
        renamedFields: [],
      },
    ]);
    const removed = guideDiff(after, guide([step(1, ['Unplug it.'])]));
    expect(removed.map((c) => [c.kind, c.number])).toEqual([
      ['removed', 2],
      ['removed', 3],
    ]);
  });

  it('reads markup and entities as the text a technician sees', () => {
    expect(plainText('<p>Torque &amp; check &lt;35 Nm&gt;</p>')).toBe('Torque & check <35 Nm>');
    // Numbered entities as the reference site writes them (the banner showed "10 psi &#38; never …").
    expect(plainText('10 psi &#38; never more than 15 psi (&#60;15 psi) &#x2014; <em>ever</em>')).toBe(
      '10 psi & never more than 15 psi (<15 psi) — ever',
    );
    // A release note's text: a "<" before a number is not a tag (the note lost everything up to the ">").
    expect(plainText('Keep the tank <15 psi when draining & check the seal. Step 5 is gone > see step 6.')).toBe(
      'Keep the tank <15 psi when draining & check the seal. Step 5 is gone > see step 6.',
    );
  });

  it("names the record's fields asked for now and no longer (a renamed field is the same field)", () => {
    const withForm = (labels: [string, string][]): GuideStep => ({
      ...step(4, ['Close the drain valve.']),
      form: {
        formRevisionid: 1,
        stepid: 4,
        fields: labels.map(([fieldGuid, label]) => ({ fieldGuid, label, type: 'Image' }) as never),
      },
    });
    const before = guide([
      withForm([
        ['photo', 'Photo of the valve'],
        ['leak', 'Leaks?'],
      ]),
    ]);
    const after = guide([
      withForm([
        ['leak', 'Leaks when closed?'],
        ['torque', 'Torque'],
      ]),
    ]);
    // Before: a form change alone was no change at all, and the banner said the steps read the same.
    expect(guideDiff(before, after)).toEqual([
      expect.objectContaining({
        kind: 'changed',
        number: 1,
        addedFields: ['Torque'],
        removedFields: ['Photo of the valve'],
        // The name the site's record now gives the value (the session's form keeps the one it began with).
        renamedFields: [{ from: 'Leaks?', to: 'Leaks when closed?' }],
      }),
    ]);
    expect(guideDiff(after, guide([]))[0]).toMatchObject({
      kind: 'removed',
      removedFields: ['Leaks when closed?', 'Torque'],
    });
  });

  it('names a caution, a note and a reminder as the guide shows them (a caution read as any line)', () => {
    const line = (bullet: string, text: string) => ({ lineid: null, bullet, level: 0, textRendered: text });
    const before = guide([step(1, [])]);
    const after = guide([
      {
        ...step(1, []),
        lines: [
          line('icon_caution', 'Bleed the tank first.'),
          line('icon_note', 'Hand tight.'),
          line('black', 'Close it.'),
        ],
      },
    ]);
    expect(guideDiff(before, after)[0]!.addedLines).toEqual([
      'Caution: Bleed the tank first.',
      'Note: Hand tight.',
      'Close it.',
    ]);
  });
});
