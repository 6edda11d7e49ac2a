import type { Services } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from './library.ts';

/**
 * Signs tech1 in at `siteUrl`, starts a first sync of everything and resolves once it stores guides: the
 * sync running (its promise), for a test that looks at what happens meanwhile.
 */
export async function firstSyncStoring(services: Services, siteUrl: string): Promise<{ sync: Promise<unknown> }> {
  const { api, events } = services;
  unwrap(await api.signIn({ siteUrl, email: DEMO_ACCOUNTS.tech1.email, password: 'fieldguide' }));
  unwrap(await api.setOfflineScope({ mode: 'all', categories: [], guideids: [] }));
  const storing = new Promise<void>((resolve) =>
    events.subscribe((event) => {
      if (event.name === 'syncProgress' && event.payload.phase === 'guides' && event.payload.done > 0) resolve();
    }),
  );
  const sync = api.syncNow();
  await storing;
  return { sync };
}

/**
 * The last guide the site lists that tech1 may read (the generated sites have private ones) and the sync has
 * not stored yet: the one a first sync reaches last. Undefined when there is none.
 */
export async function unstoredGuide(services: Services, site: RunningSite): Promise<number | undefined> {
  const ids = site.db.prepare('SELECT guideid FROM guides ORDER BY guideid DESC').all() as { guideid: number }[];
  for (const { guideid } of ids) {
    const summary = await services.api.getGuideSummary(guideid);
    if (summary.ok && summary.value.offline !== 'full') return guideid;
  }
  return undefined;
}
