import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';
import { connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// A site whose work-log list knows no `status` filter (worklog/suspended-lists.ts): the taker's Sessions list
// showed nothing a colleague handed over. It shows the hand-over, asked guide by guide, and says so: which guides
// were asked, and where one on another guide shows. Looked at, at every size with Larger text.
const demo = proxiedDemoWorkshop({ noStatusFilter: true });
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const WORKORDER = 'WO-BY-GUIDE-E2E';

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
  await connectAndSyncDemo(page, app.shell.url);
  const { guideid } = demo
    .site()
    .db.prepare(
      `SELECT g.guideid FROM guides g JOIN guide_revisions r ON r.guideid = g.guideid AND r.revisionid = g.revisionid
       WHERE r.title LIKE '%orklift%' AND r.public = 1 ORDER BY g.guideid LIMIT 1`,
    )
    .get() as { guideid: number };
  // tech2, on another computer, starts the forklift check and hands it over.
  const tech2 = await signIn(demo.site(), 'tech2');
  const started = await api(demo.site(), 'POST', '/work_log', {
    token: tech2.token,
    json: { guideid, workorderid: WORKORDER },
  });
  expect(started.status).toBe(201);
  const suspend = `/work_log/${started.body.entryid}/suspend`;
  const query = { revisionid: started.body.revisionid };
  expect((await api(demo.site(), 'POST', suspend, { token: tech2.token, query, json: {} })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Sessions list of a site that lists handed-over sessions guide by guide', () => {
  it("shows tech2's hand-over and which guides were asked, at every size with Larger text", async () => {
    await page.getByTestId('nav-sessions').click();
    const row = page.getByTestId('handed-over-row').filter({ hasText: WORKORDER });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain(DEMO_ACCOUNTS.tech2.username);
    const words = page.getByTestId('handed-over-by-guide');
    expect(await words.textContent()).toMatch(
      /^From the \d+ guides? (\(of \d+\) )?worked on or kept on this computer: this site lists them guide by guide\./,
    );
    await expectLargerTextFits(page, 'sessions-handed-over-by-guide', words);
    expect(pageErrors).toEqual([]);
  });
});
