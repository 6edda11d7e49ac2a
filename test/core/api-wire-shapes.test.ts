import { describe, expect, it } from 'vitest';
import { toGuideDetail, toListItem } from '../../electron/core/api/map-guide.ts';
import { categoryHierarchyWire, guideSummaryWire, guideWire } from '../../electron/core/api/wire/guide.ts';
import { releaseListWire } from '../../electron/core/api/wire/release.ts';

// How real sites write what the reference types strictly (test/fixtures/real/README.md): the client
// reads each of these as the site meant it, never as a failed guide.

const guide = {
  guideid: '41',
  revisionid: '7',
  title: 'Replace the fan',
  category: 'Printer',
  subject: '',
  type: 'replacement',
  difficulty: '',
  time_required: 30,
  author: { userid: 9, text: 'Kay' },
  image: [],
  introduction_rendered: '',
  conclusion_rendered: null,
  flags: [{ flagid: 'GUIDE_USER_CONTRIBUTED', title: 'User-Contributed Guide', text: 'An awesome member…' }, 'DANGER'],
  parts: [
    { text: 'Fan', quantity: '2', url: '', notes: '', thumbnail: '' },
    { text: 'Screw', quantity: '', url: null, notes: null, thumbnail: null },
  ],
  tools: [],
  prerequisites: [{ guideid: '3' }],
  documents: [],
  steps: [
    {
      stepid: '2',
      orderby: '2',
      title: null,
      lines: [{ lineid: '5', bullet: 'red', level: '1', text_rendered: 'Second' }],
      media: [],
    },
    {
      stepid: 1,
      orderby: 1,
      title: 'First',
      lines: [],
      media: { type: 'image', data: [{ id: '14', standard: 'https://cdn.test/a.standard', thumbnail: '' }] },
    },
  ],
  modified_date: '1512692663',
  public: 1,
  url: '',
};

describe('real shapes of API 2.0 answers', () => {
  it('a step line with its raw text alone (StepLine requires only text_raw, bullet and level) shows that text', () => {
    const raw = {
      ...guide,
      steps: [{ stepid: 3, lines: [{ bullet: 'black', level: 0, text_raw: 'Torque to 25 <Nm> & check' }] }],
    };
    const [step] = toGuideDetail(guideWire.parse(raw)).steps;
    expect(step!.lines[0]!.textRendered).toBe('Torque to 25 &lt;Nm&gt; &amp; check');
  });

  it('a guide with numbers as strings, [] and "" for missing values, flags as objects, quantity as a string', () => {
    const detail = toGuideDetail(guideWire.parse(guide));
    expect(detail).toMatchObject({
      guideid: 41,
      revisionid: 7,
      difficulty: null,
      timeRequired: '30',
      author: 'Kay',
      image: null,
      url: null,
      modifiedDate: 1512692663,
    });
    expect(detail.flags.map((f) => [f.flagid, f.title])).toEqual([
      ['GUIDE_USER_CONTRIBUTED', 'User-Contributed Guide'],
      ['DANGER', 'Danger'],
    ]);
    expect(detail.parts.map((p) => [p.text, p.quantity, p.url, p.thumbnail])).toEqual([
      ['Fan', 2, null, null],
      ['Screw', 1, null, null],
    ]);
    expect(detail.prerequisites).toEqual([{ guideid: 3, title: 'Guide 3' }]);
    expect(detail.steps.map((s) => [s.stepid, s.orderby, s.title, s.media.type])).toEqual([
      [1, 1, 'First', 'image'],
      [2, 2, '', 'none'],
    ]);
    expect(detail.steps[0]!.media).toEqual({
      type: 'image',
      images: [{ id: 14, standard: 'https://cdn.test/a.standard' }],
    });
    expect(detail.steps[1]!.lines).toEqual([{ lineid: 5, bullet: 'red', level: 1, textRendered: 'Second' }]);
  });

  it('a list entry with an image without guid, public as 0/1 and a string date', () => {
    const wire = guideSummaryWire.parse({
      guideid: 5,
      title: 'T',
      revisionid: '3',
      modified_date: '1377211779',
      public: 0,
      image: { id: 14, original: 'https://cdn.test/x' },
      flags: [],
      category: null,
    });
    expect(wire.public).toBe(false);
    // A false is a value, not a missing one.
    expect(
      guideSummaryWire.parse({ guideid: 6, title: 'P', revisionid: 1, modified_date: 1, public: false }).public,
    ).toBe(false);
    expect(toListItem(wire, 'summary')).toMatchObject({
      guideid: 5,
      category: '',
      modifiedDate: 1377211779,
      image: { id: 14, original: 'https://cdn.test/x' },
    });
  });

  // Each branch is read where the tree is walked (test/core/site-answers.test.ts).
  it('category leaves as null, {} or []', () => {
    const tree = { Mac: { Laptop: null, Desktop: {}, Server: [] } };
    expect(categoryHierarchyWire.parse(tree)).toEqual(tree);
  });

  it('a guide release with ids as strings, [] for a missing user and "" for missing notes', () => {
    const [release] = releaseListWire.parse([
      { releaseid: '4', guideid: '41', revisionid: '9', user: [], status: 'released', title: 'Fan', notes: '' },
    ]);
    expect(release).toMatchObject({ releaseid: 4, revisionid: 9, title: 'Fan', notes: null, user: null });
  });
});
