import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { generateSite } from '../../server/generator/generator.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { flushUntilQuiet, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { signIn, type SignedIn } from '../server/helpers.ts';

// iFixit pages a technician's completions before it leaves out the guides it has in no translation of the
// site's language (its OpenAPI description of GET /user/completions): 200 completions of German guides on
// an English site answer an empty page, and later pages still list guides. A sync that stopped at that
// page took the "done" marks of every later guide off this computer. Against the reference server in
// iFixit's dialect, over HTTP.

const GERMAN = 200;
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let tech1: SignedIn;
let marked: number;
let markedElsewhere: number;

beforeAll(async () => {
  site = await startSite({
    dialect: 'ifixit',
    seed: (db) => void generateSite(db, { guides: GERMAN + 10, steps: 1, images: 0, seed: 5 }),
  });
  const ids = (site.db.prepare('SELECT guideid FROM guides ORDER BY guideid').all() as { guideid: number }[]).map(
    (row) => row.guideid,
  );
  // The first 200 guides are written in German, with no English translation; the rest in English.
  const german = ids.slice(0, GERMAN);
  const setGerman = site.db.prepare("UPDATE guides SET locale = 'de' WHERE guideid = ?");
  site.db.transaction(() => german.forEach((guideid) => setGerman.run(guideid)))();
  [marked, markedElsewhere] = [ids[GERMAN + 3]!, ids[GERMAN + 6]!];
  tech1 = await signIn(site, 'tech1');
  const done = site.db.prepare('INSERT INTO completions (userid, guideid, created) VALUES (?, ?, ?)');
  site.db.transaction(() => german.forEach((guideid) => done.run(tech1.userid, guideid, 1_700_000_000)))();

  app = makeServices();
  api = app.services.api;
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [] }));
  expect(unwrap(await api.syncNow()).error).toBeNull();
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('completions listed after a page of guides all in other languages', () => {
  it('stay done after a sync, and one done on another computer comes in', { timeout: 60_000 }, async () => {
    unwrap(await api.setGuideMark(marked, 'completed', true));
    await flushUntilQuiet(api);
    const onSite = site.db.prepare('SELECT 1 FROM completions WHERE userid = ? AND guideid = ?');
    expect(onSite.get(tech1.userid, marked)).toBeDefined();
    site.db
      .prepare('INSERT INTO completions (userid, guideid, created) VALUES (?, ?, ?)')
      .run(tech1.userid, markedElsewhere, 1_700_000_000);

    expect(unwrap(await api.syncNow()).error).toBeNull();
    expect(unwrap(await api.getGuideMarks(marked))).toMatchObject({ completed: true });
    expect(unwrap(await api.getGuideMarks(markedElsewhere))).toMatchObject({ completed: true });
    const done = unwrap(await api.getMyGuides()).completed.map((entry) => entry.guideid);
    expect(done).toEqual(expect.arrayContaining([marked, markedElsewhere]));
  });
});
