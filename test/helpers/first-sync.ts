import type { Services } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
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
