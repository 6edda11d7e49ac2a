import { describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// The status chip's percentage during a first sync: it read the sync's state, whose progress is the
// phase's first, and said "Syncing 0%" while the sync centre counted 359 of 381 guides (a helper's walk).
// Here each file is slowed on its way, and the two are read as the media come: they say the same figure.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 }, { synced: false });

describe('the status chip during a first sync', () => {
  it('says the percentage the sync centre says', async () => {
    const { app, page, pageErrors } = opened;
    const { api } = app.app.services;
    unwrap(await api.connectDemo());
    // Each file a while on the way: the sync moves through its media, and the two are read as it moves.
    demo.setSchedule(({ path }) => (path.startsWith('/api/') ? PASS : { kind: 'delay', ms: 400 }));
    const syncing = api.syncNow();
    await page.goto(new URL('/sync', app.shell.url).toString());
    await page.locator('[data-testid="sync-progress"][data-phase="media"]').waitFor({ timeout: 30_000 });
    // Up to ten readings while the media come (each file 400 ms on its way: the phase outlasts the first).
    const seen: string[][] = [];
    for (let i = 0; i < 10 && (await page.locator('[data-phase="media"]').count()) > 0; i++) {
      await page.waitForTimeout(300);
      // Both read in one turn of the page: what the technician sees at one moment.
      seen.push(
        await page.evaluate(() => [
          document.querySelector('[data-testid="status-chip"]')?.textContent?.match(/Syncing (\d+%)/)?.[1] ?? '',
          document.querySelector('.sync-percent')?.textContent?.trim() ?? '',
        ]),
      );
    }
    const moving = seen.filter(([, centre]) => centre !== '');
    expect(moving.length).toBeGreaterThan(0);
    expect(moving.filter(([chip, centre]) => chip !== centre)).toEqual([]);
    await page.screenshot({ path: artifact('sync-chip-progress.png') });
    demo.setSchedule(null);
    await syncing;
    expect(pageErrors).toEqual([]);
  });
});
