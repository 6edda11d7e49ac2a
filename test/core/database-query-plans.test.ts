import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../electron/core/db/store.ts';
import { TRANSITION_ACTIONS } from '../../electron/core/worklog/replay/transition.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';
import { bareGuide as detail } from '../helpers/guide-detail.ts';

// The hot queries (a library page, a search, the outbox's next actions) must be answered through their
// index, whatever the size of the library: a plan that scans a table is a page that gets slower with
// every guide. The SQL is the repositories' own, caught as they run it, and explained with their arguments
// on the store's own connection (it holds the database alone: db/open.ts).

interface Ran {
  sql: string;
  args: unknown[];
  db: Database.Database;
}

const tmp = makeTempDir('query-plans');
let store: Store;
let probe: Database.Database;
const ran: Ran[] = [];

/** Runs `work` and answers the plan of every statement it ran (EXPLAIN QUERY PLAN, details joined by " | "). */
function plansOf(work: () => void): { sql: string; plan: string }[] {
  ran.length = 0;
  work();
  return ran.splice(0).map(({ sql, args, db }) => ({
    sql,
    plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[])
      .map((row) => row.detail)
      .join(' | '),
  }));
}

beforeAll(() => {
  store = openTestStore(tmp.dir);
  store.transaction(() => {
    const technicians = [1, 2].map((userid) =>
      store.technicians.signedIn(
        'https://site.test',
        { userid, username: `Tech ${userid}`, uniqueUsername: null, privileges: [], imageUrl: null },
        null,
        1,
      ),
    );
    for (let guideid = 1; guideid <= 2000; guideid++) {
      const guide = detail(guideid);
      store.guides.upsertSummary({
        ...guide,
        summary: `How to fix pump ${guideid}`,
        flags: [],
        image: null,
        public: guideid % 10 !== 0,
        authorUserid: 1,
      });
      if (guideid % 4 === 0) {
        store.guides.storeGuide(
          {
            detail: guide,
            forms: [],
            quizzes: [],
            searchText: { title: guide.title, summary: 'pump', body: `Loosen pump bolt ${guideid}` },
            mediaUrls: [],
          },
          1,
        );
      }
    }
    for (let n = 0; n < 600; n++) {
      const chain = `session-${n % 150}`;
      const technician = technicians[n % 150 < 100 ? 0 : 1]!;
      store.outbox.add(TRANSITION_ACTIONS.pause, { sessionId: chain }, { chain, actedAt: n, now: n, technician });
    }
  });
  // No ANALYZE: the app never runs it, so these are the plans it gets.
  probe = new Database(':memory:');
  // The statements the repositories run, with their arguments (prepared once per text; run many times).
  type Run = (...a: unknown[]) => unknown;
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { all: Run; get: Run; iterate: Run };
  for (const method of ['all', 'get', 'iterate'] as const) {
    const original = statement[method];
    type Caught = { source: string; database: Database.Database };
    vi.spyOn(statement, method).mockImplementation(function (this: Caught, ...args: unknown[]) {
      ran.push({ sql: this.source, args, db: this.database });
      return original.apply(this, args);
    });
  }
});

afterAll(() => {
  vi.restoreAllMocks();
  probe.close();
  store.close();
  tmp.remove();
});

/** A plain technician: private guides (every tenth here) are filtered out of what they read. */
const technician = { userid: 2, admin: false };

describe('the hot queries use their index', () => {
  /**
   * A library page's statements: its count and, deep in the list, the mark it starts after (each run
   * again only when the database changed), and its rows.
   */
  function listPlans(work: () => void): { count: string | undefined; mark: string | undefined; page: string } {
    const plans = plansOf(work).filter(({ sql }) => !sql.includes('total_changes()'));
    const count = plans.find(({ sql }) => sql.startsWith('SELECT count(*)'))?.plan;
    const mark = plans.find(({ sql }) => sql.includes('LIMIT 1 OFFSET'))?.plan;
    const page = plans.find(({ sql }) => sql.startsWith('SELECT g.*'))!.plan;
    return { count, mark, page };
  }
  /** The page's ids come from the index in title order; only its own rows (50 at most) are sorted again. */
  const sortsOnlyItsRows = (plan: string) =>
    expect(plan.match(/TEMP B-TREE/g) ?? []).toHaveLength(plan.includes('json_each') ? 2 : 1);

  it('a library page reads guides in title order through guides_title, without sorting them', () => {
    const { count, page } = listPlans(() => store.guides.list({ limit: 50, offset: 600 }, null, technician));
    expect(count).toMatch(/USING COVERING INDEX/);
    expect(page).toMatch(/SCAN (guides|g) USING COVERING INDEX guides_title/);
    sortsOnlyItsRows(page);
    // Whether each row's picture is stored: one lookup by URL, never a scan of the media index.
    expect(page).toMatch(/SEARCH tm USING INDEX sqlite_autoindex_media_1 \(url=\?\)/);
  });

  it('a page of one category finds its guides through guides_category', () => {
    const { count, page } = listPlans(() => store.guides.list({ limit: 50 }, ['Compressors'], technician));
    for (const plan of [count, page])
      expect(plan).toMatch(/SEARCH (guides|g) USING (COVERING )?INDEX guides_category \(category=\?\)/);
  });

  it('a page of one type, or of the guides kept whole, reads its own index in title order, without sorting', () => {
    const byType = listPlans(() => store.guides.list({ limit: 50, type: 'repair' }, null, technician));
    expect(byType.count).toMatch(/SEARCH (guides|g) USING COVERING INDEX guides_type \(type=\?\)/);
    expect(byType.page).toMatch(/SEARCH (guides|g) USING COVERING INDEX guides_type \(type=\?\)/);
    sortsOnlyItsRows(byType.page);
    const kept = listPlans(() => store.guides.list({ limit: 50, offlineOnly: true }, null, technician));
    for (const plan of [kept.count, kept.page])
      expect(plan).toMatch(/(SCAN|SEARCH) (guides|g) USING (COVERING )?INDEX guides_stored/);
    sortsOnlyItsRows(kept.page);
  });

  it(
    'a library page deep in the list starts after a mark in guides_title, ' +
      'and counts and marks again only after a change',
    () => {
      const first = listPlans(() => store.guides.list({ limit: 50, offset: 1500 }, null, { userid: 1, admin: false }));
      expect(first.count).toMatch(/USING COVERING INDEX/);
      // The mark before row 1000 is found by skipping rows in the
      // index; the page starts after it, a range of guides_title.
      expect(first.mark).toMatch(/^SCAN (guides|g) USING COVERING INDEX guides_title$/);
      expect(first.page).toMatch(/SEARCH (guides|g) USING COVERING INDEX guides_title \(title>\?\)/);
      sortsOnlyItsRows(first.page);
      const next = listPlans(() => store.guides.list({ limit: 50, offset: 1550 }, null, { userid: 1, admin: false }));
      expect([next.count, next.mark]).toEqual([undefined, undefined]);
      expect(next.page).toMatch(/SEARCH (guides|g) USING COVERING INDEX guides_title \(title>\?\)/);
      const before = store.guides.list({ limit: 1 }, null, { userid: 1, admin: false }).total;
      store.guides.upsertSummary({
        ...detail(5000),
        summary: 'One more',
        flags: [],
        image: null,
        public: true,
        authorUserid: 1,
      });
      expect(store.guides.list({ limit: 1 }, null, { userid: 1, admin: false }).total).toBe(before + 1);
    },
  );

  it('a search matches in the full-text index and looks each guide up by its id', () => {
    const plans = plansOf(() => store.search.search('pump bolt', 20, 0, technician));
    expect(plans).toHaveLength(2);
    for (const { plan } of plans) expect(plan).toMatch(/SCAN guide_search VIRTUAL TABLE INDEX \d+:M/);
    expect(plans[1]?.plan).toMatch(/SEARCH g USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    for (const { plan } of plans) expect(plan).not.toMatch(/SCAN (g|guides)\b(?! USING)/);
  });

  it('a search matching more than it counts ranks a pool of them, found and ranked in the full-text index', () => {
    // 'pump' is in every summary (1,800 readable): the count stops at the cap, the pool comes from the
    // title (none), then the title or summary, and the page is ranked among the pool only.
    const plans = plansOf(() => store.search.search('pump', 20, 0, technician));
    expect(plans.map(({ sql }) => sql.trimStart().split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'SELECT count(*)',
      'SELECT guide_search.rowid',
      'SELECT guide_search.rowid',
      'SELECT g.*,',
    ]);
    for (const { plan } of plans) expect(plan).toMatch(/SCAN guide_search VIRTUAL TABLE INDEX \d+:M/);
    for (const { plan } of plans) expect(plan).not.toMatch(/SCAN (g|guides)\b(?! USING)/);
    expect(plans[3]?.plan).toMatch(/SEARCH g USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(store.search.search('pump', 20, 0, technician)).toMatchObject({ total: 1000, items: { length: 20 } });
  });

  it(
    "the outbox's next actions: " +
      'the waiting ones of these technicians, each found first of its chain through outbox_chain',
    () => {
      const plans = plansOf(() => {
        // More places than chains waiting: each technician's rows are still read once.
        store.outbox.due(Date.now(), 300, [1, 2]);
        store.outbox.nextDue([1, 2]);
      });
      for (const { plan } of plans) {
        expect(plan).toMatch(/SEARCH o USING INDEX outbox_technician \(technician=\? AND state=\?\)/);
        expect(plan).toMatch(/SEARCH p USING COVERING INDEX outbox_chain \(chain=\? AND id<\?\)/);
        // Never every row of the outbox (the GROUP BY over every chain it replaced read them all at each answer).
        expect(plan).not.toMatch(/SCAN (outbox|o|p)\b/);
      }
      // The next actions in id order as the index gives them, the read stopping at the places free: never
      // a sort of every waiting row at each answer (34 ms a call with 30,000 actions in 5,000 chains).
      const next = plans.filter(({ sql }) => !sql.includes('min(next_attempt_at)'));
      for (const { plan } of next) expect(plan).not.toMatch(/TEMP B-TREE/);
      // One read of each technician's waiting rows, and the look for the next due time.
      expect(plans).toHaveLength(3);
      // The first action of each of the 150 chains (actions 1 to 150, the 150 chains' first), in the order taken.
      expect(store.outbox.due(Date.now(), 500, [1, 2]).map((row) => row.id)).toEqual(
        Array.from({ length: 150 }, (_, i) => i + 1),
      );
      expect(store.outbox.due(Date.now(), 500, [2]).map((row) => row.chain)).toEqual(
        Array.from({ length: 50 }, (_, i) => `session-${100 + i}`),
      );
      // The chains being sent are left out: the places free, from the chains that can take them.
      expect(store.outbox.due(Date.now(), 2, [1, 2], ['session-0', 'session-2']).map((row) => row.chain)).toEqual([
        'session-1',
        'session-3',
      ]);
    },
  );

  it("the outbox screen's list: each state of the technician's rows in id order, read no further than it lists", () => {
    const plans = plansOf(() => expect(store.outbox.listed(1, 200)).toHaveLength(200));
    expect(plans).toHaveLength(3);
    for (const { plan } of plans) {
      expect(plan).toMatch(/SEARCH outbox USING INDEX outbox_technician \(technician=\? AND state=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN outbox/);
    }
  });

  it('the media still to download are read in rank order from media_to_fetch, never the whole media table', () => {
    const plans = plansOf(() => store.media.pending(64, 5, 'large'));
    expect(plans).toHaveLength(1);
    expect(plans[0]!.plan).toMatch(/SCAN m USING INDEX media_to_fetch/);
    expect(plans[0]!.plan).not.toMatch(/TEMP B-TREE/);
  });

  it('what the views show is read from media_to_show, past none of the zoom variants still to download', () => {
    const plans = plansOf(() => store.media.pending(64, 5, 'always'));
    expect(plans).toHaveLength(1);
    expect(plans[0]!.plan).toMatch(/SCAN m USING INDEX media_to_show/);
    expect(plans[0]!.plan).not.toMatch(/TEMP B-TREE/);
  });
});
