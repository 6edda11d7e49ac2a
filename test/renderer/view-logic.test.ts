import { describe, expect, it } from 'vitest';
import type { CategoryNode, GuideFlag, SyncProgress } from '../../electron/contract.ts';
import { categoryPath, flattenCategories, totalGuides, visibleCategoryRows } from '../../src/lib/category-tree.ts';
import {
  excerpt,
  formatAgo,
  formatBytes,
  formatDate,
  formatDateTime,
  localTimes,
  plural,
} from '../../src/lib/format.ts';
import { bulletKind, externalUrl, linesBesideCautions, otherFlags, safetyFlags } from '../../src/lib/guide-content.ts';
import { pagesCovering } from '../../src/lib/paging.ts';
import { phaseWords, progressFraction } from '../../src/lib/sync-phase.ts';

describe('sizes and times in plain words', () => {
  it('shows sizes with 1024-based units and one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(715 * 1024)).toBe('715 KB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.0 GB');
    expect(formatBytes(-1)).toBe('–');
  });

  it('says how long ago a sync was', () => {
    const now = 1_700_000_000_000;
    const s = now / 1000;
    expect(formatAgo(s - 10, now)).toBe('just now');
    expect(formatAgo(s - 60, now)).toBe('1 minute ago');
    expect(formatAgo(s - 5 * 60, now)).toBe('5 minutes ago');
    expect(formatAgo(s - 3 * 3600, now)).toBe('3 hours ago');
    expect(formatAgo(s - 86400, now)).toBe('yesterday');
    expect(formatAgo(s + 100, now)).toBe('just now');
  });

  it("shows a search snippet whole, a long one shortened at a word with '…'", () => {
    expect(excerpt('Swap a worn  or glazed\nV-belt.')).toBe('Swap a worn or glazed V-belt.');
    const long = 'word '.repeat(60).trim();
    const short = excerpt(long, 160);
    expect(short.endsWith('word…')).toBe(true);
    expect(short.length).toBeLessThanOrEqual(161);
    expect(long.startsWith(short.slice(0, -1))).toBe(true);
    // One long token with no space to cut at: cut at the length, never an empty snippet.
    expect(excerpt('x'.repeat(400), 160)).toBe(`${'x'.repeat(160)}…`);
    // Punctuation before the cut is not left hanging before the '…'.
    expect(excerpt(`${'a'.repeat(150)}, bbbbbbbbbbbbbbbbbbbbbbbbbbb`, 160)).toBe(`${'a'.repeat(150)}…`);
  });

  it("keeps a date's and a time's pieces whole: a narrow column breaks them after a comma only", () => {
    const at = Date.UTC(2026, 11, 3, 17, 20) / 1000;
    const texts = [
      formatDateTime(at),
      formatDate(at),
      localTimes('2026-12-03T17:20:00Z'),
      localTimes('2026-12-03 17:20 UTC'),
    ];
    for (const text of texts) {
      // The breakable spaces are those after a comma: "Dec 3, 2026, 05:20 PM" as "Dec 3," "2026," "05:20 PM".
      expect(text.replace(/, /g, ''), text).not.toMatch(/ /);
      expect(text).toMatch(/\d/);
    }
    expect(formatDateTime(at).replace(/\s/g, ' ')).toBe(
      new Date(at * 1000)
        .toLocaleString(undefined, {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
        })
        .replace(/\s/g, ' '),
    );
  });

  it("shows a sign-off's UTC time, as the site is sent it, in local time", () => {
    const at = Date.UTC(2026, 11, 3, 17, 20) / 1000;
    const said = 'Signed off by Sam Okafor (confirmed by typing their name) at 2026-12-03 17:20 UTC';
    expect(localTimes(said)).toBe(`Signed off by Sam Okafor (confirmed by typing their name) at ${formatDateTime(at)}`);
    // Not a time: left as written.
    expect(localTimes('torque 2026-13-45 99:99 UTC')).toBe('torque 2026-13-45 99:99 UTC');
  });

  it('counts with the right plural', () => {
    expect(plural(1, 'guide')).toBe('1 guide');
    expect(plural(2, 'guide')).toBe('2 guides');
  });
});

describe('the guide list fetched page by page', () => {
  it('asks only for the pages that hold the rows on screen', () => {
    expect(pagesCovering(0, 10, 200)).toEqual([0]);
    expect(pagesCovering(190, 210, 200)).toEqual([0, 1]);
    expect(pagesCovering(4000, 4012, 200)).toEqual([20]);
    expect(pagesCovering(10, 5, 200)).toEqual([]);
  });
});

const tree: CategoryNode[] = [
  {
    name: 'Machine Tools',
    title: 'Machine Tools',
    guideCount: 4,
    children: [{ name: 'Lathes', title: 'Lathes', guideCount: 2, children: [] }],
  },
  { name: 'Forklifts', title: 'Forklifts', guideCount: 3, children: [] },
];

describe('the category tree', () => {
  it('shows children only under expanded categories', () => {
    expect(visibleCategoryRows(tree, new Set()).map((r) => r.node.name)).toEqual(['Machine Tools', 'Forklifts']);
    const open = visibleCategoryRows(tree, new Set(['Machine Tools']));
    expect(open.map((r) => [r.node.name, r.depth, r.hasChildren])).toEqual([
      ['Machine Tools', 0, true],
      ['Lathes', 1, false],
      ['Forklifts', 0, false],
    ]);
  });

  it('finds the path to a category and counts every guide once', () => {
    expect(categoryPath(tree, 'Lathes')).toEqual(['Machine Tools', 'Lathes']);
    expect(categoryPath(tree, 'Nowhere')).toEqual([]);
    expect(totalGuides(tree)).toBe(7);
    expect(flattenCategories(tree).map((c) => c.depth)).toEqual([0, 1, 0]);
  });
});

describe('guide content', () => {
  const flag = (flagid: string): GuideFlag => ({ flagid, title: flagid, text: '' });

  it('puts DEATH before DANGER and leaves the site bookkeeping flags out', () => {
    const flags = [flag('DANGER'), flag('GUIDE_STARRED'), flag('DEATH'), flag('Custom')];
    expect(safetyFlags(flags).map((f) => f.flagid)).toEqual(['DEATH', 'DANGER']);
    expect(otherFlags(flags).map((f) => f.flagid)).toEqual(['Custom']);
  });

  it('draws each bullet colour and the three icons, unknown bullets as black', () => {
    for (const colour of ['black', 'red', 'orange', 'yellow', 'green', 'blue', 'light_blue', 'violet']) {
      expect(bulletKind(colour).kind).toBe('dot');
    }
    expect(
      new Set(
        ['red', 'orange', 'yellow', 'green', 'blue', 'light_blue', 'violet', 'black'].map((c) =>
          JSON.stringify(bulletKind(c)),
        ),
      ).size,
    ).toBe(8);
    expect(bulletKind('icon_note')).toMatchObject({ kind: 'icon', icon: 'note' });
    expect(bulletKind('icon_caution')).toMatchObject({ kind: 'icon', icon: 'caution' });
    expect(bulletKind('icon_reminder')).toMatchObject({ kind: 'icon', icon: 'reminder' });
    expect(bulletKind('sparkly')).toEqual(bulletKind('black'));
  });

  it('names every coloured bullet and gives it a shape: its meaning is never in colour alone', () => {
    for (const colour of ['red', 'orange', 'yellow', 'green', 'blue', 'light_blue', 'violet']) {
      const kind = bulletKind(colour);
      expect(kind.kind === 'dot' && kind.label !== null && kind.shape !== 'dot', colour).toBe(true);
    }
    expect(bulletKind('red')).toMatchObject({ label: 'Red', shape: 'octagon' });
    expect(bulletKind('black')).toMatchObject({ label: null, shape: 'dot' });
  });

  it("lists a step's lines beside run mode's hazard strip without the cautions it shows", () => {
    const line = (bullet: string, level: number, text: string) => ({ lineid: null, bullet, level, textRendered: text });
    const lines = [
      line('black', 0, 'Look at the forks'),
      line('icon_caution', 0, 'Hot surface'),
      line('black', 0, 'Check the pins'),
      line('red', 0, 'Never use a bent fork'),
    ];
    expect(linesBesideCautions(lines).map((l) => l.textRendered)).toEqual(['Look at the forks', 'Check the pins']);
    // A caution with lines under it stays, with them: they are not left under the line before it.
    const nested = [line('black', 0, 'Lift the mast'), line('red', 0, 'Stand clear'), line('black', 1, 'Two metres')];
    expect(linesBesideCautions(nested)).toEqual(nested);
    expect(linesBesideCautions([line('icon_note', 0, 'Note'), line('red', 1, 'Sharp')]).length).toBe(1);
  });

  it('lets only http and https addresses leave the app', () => {
    expect(externalUrl('https://a.test/x')).toBe('https://a.test/x');
    expect(externalUrl('javascript:alert(1)')).toBeNull();
    expect(externalUrl('file:///etc/passwd')).toBeNull();
    expect(externalUrl('/relative')).toBeNull();
    expect(externalUrl(null)).toBeNull();
  });
});

describe('sync progress in words', () => {
  const progress = (p: Partial<SyncProgress>): SyncProgress => ({
    phase: 'guides',
    done: 0,
    total: 0,
    bytes: 0,
    message: null,
    ...p,
  });

  it('names every phase in plain words', () => {
    for (const phase of [
      'idle',
      'categories',
      'listing',
      'deletions',
      'guides',
      'media',
      'done',
      'failed',
      'cancelled',
    ] as const) {
      expect(phaseWords(phase)).toMatch(/^[A-Z][a-z ,]+$/);
    }
  });

  it('is indeterminate until the total is known, then a fraction, full when done', () => {
    expect(progressFraction(progress({ total: 0 }))).toBeNull();
    expect(progressFraction(progress({ done: 3, total: 12 }))).toBe(0.25);
    expect(progressFraction(progress({ done: 20, total: 12 }))).toBe(1);
    expect(progressFraction(progress({ phase: 'done' }))).toBe(1);
  });
});
