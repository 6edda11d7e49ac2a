import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// The planner and the guide fetcher read the database a page (500 rows) at a time, so memory does not
// grow with the site: a site of more than two pages of guides proves the pages join without a gap.
const GUIDES = 1100;
let site: RunningSite;
let app: ReturnType<typeof makeServices>;

beforeAll(async () => {
  site = await startSite({ seed: (db) => void generateSite(db, { guides: GUIDES, steps: 1, images: 0, seed: 3 }) });
  app = makeServices();
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('a sync of more guides than a page', () => {
  // A few thousand real requests: more than the default time on two busy cores.
  it(
    'stores every guide whole, then keeps only the chosen ones whole when the scope narrows',
    { timeout: 120_000 },
    async () => {
      const first = unwrap(await app.services.api.syncNow());
      const local = await allLocalGuides(app.services.api);
      expect(local.length).toBeGreaterThan(1000);
      expect(first).toMatchObject({ status: 'complete', changed: local.length });
      expect(local.filter((g) => g.offline !== 'full')).toEqual([]);

      const ids = local.map((g) => g.guideid).sort((a, b) => a - b);
      // One guide on each page of the planner, and the last one.
      const chosen = [ids[0]!, ids[499]!, ids[500]!, ids[1000]!, ids[ids.length - 1]!];
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: chosen }));
      expect(unwrap(await app.services.api.syncNow())).toMatchObject({ status: 'complete', changed: 0 });
      const after = await allLocalGuides(app.services.api);
      expect(after.length).toBe(local.length);
      expect(
        after
          .filter((g) => g.offline === 'full')
          .map((g) => g.guideid)
          .sort((a, b) => a - b),
      ).toEqual(chosen);
      // A picker names guides by id, whole or summary: the listing gave every one its title.
      const named = unwrap(await app.services.api.listGuides({ guideids: [ids[1]!, chosen[1]!, 999_999], limit: 10 }));
      expect(named.total).toBe(2);
      expect(named.items.map((g) => [g.guideid, g.offline])).toEqual(
        expect.arrayContaining([
          [ids[1]!, 'summary'],
          [chosen[1]!, 'full'],
        ]),
      );
      expect(named.items.every((g) => g.title.length > 0)).toBe(true);
    },
  );
});
