import { beforeAll, describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// One step picture the site no longer has (404), as real sites have (found walking a site of iFixit's
// dialect): every sync "failed", the chip said "Last sync failed", and the Sync centre said "The last
// sync stopped … The library is as it was before", while that sync had stored every guide and every other
// picture. The sync goes on past a picture; it is said as what it is: finished, with that one problem.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 }, { synced: false });
let missing: string | null = null;

beforeAll(async () => {
  unwrap(await opened.app.app.services.api.connectDemo());
  // The first media file asked for is not on the site; everything else is.
  demo.setSchedule(({ path }) => {
    if (path.startsWith('/api/') || path.startsWith('/__')) return PASS;
    const file = path.split('?')[0]!;
    missing ??= file;
    return file === missing ? { kind: 'status', status: 404, message: 'Not found' } : PASS;
  });
});

describe('a picture the site does not have', () => {
  it('the sync finishes past it, and the chip and the Sync centre say so, not that it stopped', async () => {
    const { app, page } = opened;
    await page.goto(new URL('/sync', app.shell.url).toString());
    await page.getByTestId('sync-now').click();
    await expect
      .poll(() => page.getByTestId('sync-phase').textContent(), { timeout: 60_000 })
      .toBe('Finished, with problems listed below');
    expect(missing).not.toBeNull();
    const problem = page.getByTestId('sync-last-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/A media file could not be downloaded.*Everything else was stored/s);
    expect(await page.getByTestId('sync-last-error').count()).toBe(0);
    expect(await page.getByTestId('sync-outcome').textContent()).toMatch(/^Sync finished: \d+ guides updated/);
    const chip = page.getByTestId('status-chip');
    expect(await chip.textContent()).toMatch(/^\s*Synced /);
    expect(await chip.getAttribute('aria-label')).toContain('The last sync finished with a problem');
    await page.screenshot({ path: artifact('picture-missing-sync-centre-1024x600.png') });
    // Every guide is kept whole all the same.
    const state = unwrap(await app.app.services.api.getSyncState());
    expect(state.guides.offline).toBe(state.guides.total);
  });
});
