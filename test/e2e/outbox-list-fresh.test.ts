import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { rpcPath } from '../../electron/contract.ts';
import { demoAppForFile } from './browser.ts';

// The Sync centre opened again showed the list of its last visit until its own read came back: one action
// beside "76 changes" (found by the restart walk of stop 69). Until the read is in, it says it is reading.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

describe("the Sync centre's list of changes", () => {
  it('opened again, shows no list of an earlier visit while it reads its own', async () => {
    const { app, page } = opened;
    const { api } = app.app.services;
    demo.setSchedule(() => ({ kind: 'reset' }));
    unwrap(await api.startSession({ guideid: 3, workorderid: 'WO-LIST-1' }));
    await page.goto(new URL('/sync', app.shell.url).toString());
    const actions = page.getByTestId('outbox-action');
    await expect.poll(() => actions.count()).toBe(1);
    await page.getByTestId('nav-library').click();
    unwrap(await api.startSession({ guideid: 3, workorderid: 'WO-LIST-2' }));
    unwrap(await api.startSession({ guideid: 3, workorderid: 'WO-LIST-3' }));

    // Every answer to getOutbox held until the page has been looked at (the offline site's retries keep
    // asking: waiting for all of them to be answered did not end in CI).
    const route = `**${rpcPath('getOutbox')}`;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(route, async (held) => {
      const response = await held.fetch();
      await released;
      await held.fulfill({ response }).catch(() => {});
    });
    try {
      await page.getByTestId('nav-sync').click();
      await page.getByTestId('outbox-send-now').waitFor();
      expect(await actions.count(), 'no list of the last visit').toBe(0);
      await page.getByTestId('outbox-reading').waitFor();
    } finally {
      release();
      await page.unroute(route);
    }
    await expect.poll(() => actions.count()).toBe(3);
    expect(await page.getByTestId('outbox-reading').count()).toBe(0);
    demo.setSchedule(null);
  });
});
