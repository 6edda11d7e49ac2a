import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { always, onPaths } from '../fault/proxy.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { unwrap } from '../helpers/library.ts';
import { officeSaves } from '../helpers/office-save.ts';
import { api, signIn } from '../server/helpers.ts';
import { artifact, connectAndSyncDemo, fullViewShot, openDemoApp, type startApp } from './browser.ts';
import { fieldsOutOfRoom, placedProblems, runModeProblems, STEP_PARTS } from './run-mode-checks.ts';
import { checkScreen, expectLargerTextFits, formatProblems, setLargerText, VIEWPORTS } from './screen-checks.ts';

// Issue 28: tech2 hands a session over on the site; tech1's Sessions list shows it with who and when (from
// what this laptop last learned while the site does not answer), and tech1 takes it over from there.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const WORKORDER = 'WO-HANDED-E2E';
let forklift = { id: 0, title: '' };
let entryid = 0;
let suspendedAt = 0;

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
  await connectAndSyncDemo(page, app.shell.url);
  forklift = demo
    .site()
    .db.prepare(
      `SELECT g.guideid AS id, r.title FROM guides g
       JOIN guide_revisions r ON r.guideid = g.guideid AND r.revisionid = g.revisionid
       WHERE r.title LIKE '%orklift%' AND r.public = 1 ORDER BY g.guideid LIMIT 1`,
    )
    .get() as { id: number; title: string };
  // tech2, on another computer, starts two hours ago and hands the session over an hour ago.
  const tech2 = await signIn(demo.site(), 'tech2');
  suspendedAt = Math.floor(Date.now() / 1000) - 3600;
  const started = await api(demo.site(), 'POST', '/work_log', {
    token: tech2.token,
    json: { guideid: forklift.id, workorderid: WORKORDER, timestamp: suspendedAt - 3600 },
  });
  expect(started.status).toBe(201);
  entryid = started.body.entryid;
  const suspended = await api(demo.site(), 'POST', `/work_log/${entryid}/suspend`, {
    token: tech2.token,
    query: { revisionid: started.body.revisionid },
    json: { timestamp: suspendedAt },
  });
  expect(suspended.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const row = () => page.getByTestId('handed-over-row').filter({ hasText: WORKORDER });

/** The suspension time as the technician's own clock and locale say it (its spaces as spaces: `plain`). */
const localTime = async (unix: number) =>
  plain(
    await page.evaluate(
      (t) =>
        new Date(t * 1000).toLocaleString(undefined, {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
        }),
      unix,
    ),
  );
/** Text with its no-break spaces (a date is kept whole with them: lib/format.ts) read as spaces. */
const plain = (text: string | null): string => (text ?? '').replace(/\s/g, ' ');

/** What the Sessions list and the status chip show, and what the site was last asked: why a row is missing. */
async function whatIsShown(): Promise<string> {
  const sessions = await page
    .getByTestId('sessions')
    .innerText()
    .catch(() => '(no Sessions list)');
  const chip = await page
    .getByTestId('status-chip')
    .innerText()
    .catch(() => '(no status chip)');
  const asked = demo
    .proxy()
    .log.slice(-12)
    .map((e) => `${e.method} ${e.path} ${e.fault.kind} ${e.upstreamStatus ?? ''} ${e.outcome ?? 'pending'}`);
  return [`The row of ${WORKORDER} did not show. Status: ${chip}`, sessions, 'Last asked:', ...asked].join('\n');
}

async function openSessions(): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('nav-sessions').click();
  await page.getByTestId('sessions').waitFor();
}

describe("the taker's Sessions list", () => {
  it('shows the handed-over session with its guide, work order, who handed it over and when', async () => {
    await openSessions();
    await row().waitFor({ timeout: 15_000 });
    const text = plain(await row().textContent());
    expect(text).toContain(forklift.title);
    expect(text).toContain(DEMO_ACCOUNTS.tech2.username);
    expect(text).toContain(await localTime(suspendedAt));
    expect(await row().locator('time').getAttribute('datetime')).toBe(new Date(suspendedAt * 1000).toISOString());
    // One list across guides: the demo's own hand-over on the compressor belt is there too.
    await page.getByTestId('handed-over-row').filter({ hasText: 'WO-24021' }).waitFor();
    expect(await page.getByTestId('handed-over-learned').count()).toBe(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await runModeProblems(page), viewport.name).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await fullViewShot(page, 'handed-over-sessions.png');
  });

  it('says who handed it over on the guide page too', async () => {
    await page.goto(new URL(`/guides/${forklift.id}`, app.shell.url).toString());
    const onGuide = page.getByTestId('suspended-row').filter({ hasText: WORKORDER });
    await onGuide.waitFor({ timeout: 15_000 });
    expect(await onGuide.textContent()).toContain(DEMO_ACCOUNTS.tech2.username);
    expect(plain(await onGuide.textContent())).toContain(await localTime(suspendedAt));
    // In the guide page's narrow panel at 1366x768 the Take over button goes below the words, which keep
    // the panel's width: "Handed over by Jordan Lindqvist on Aug 2, 2024, 01:25 AM" took four lines beside it.
    await page.setViewportSize({ width: 1366, height: 768 });
    const lines = await onGuide.getByTestId('handed-over-by').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(lines).toBeLessThanOrEqual(2);
  });

  it('lists what it can read of a list with an entry it cannot, and says there is one more', async () => {
    // A real site's entry of a shape this version does not know (a status it never heard of), added to
    // both lists on their way from the site: the rows it can read stay, with a word on the other.
    const lists = /\/work_log(\?status=suspended|\/\d+\/suspended)/;
    const withOdd = (text: string) => {
      const list = JSON.parse(text) as { results: Record<string, unknown>[] };
      const first = list.results[0]!;
      list.results.push({ ...first, entryid: 990_001, workorderid: 'WO-ODD', status: 'archived' });
      return JSON.stringify(list);
    };
    demo.setSchedule(onPaths(lists, always({ kind: 'rewrite', body: withOdd }), 'GET'));
    try {
      await openSessions();
      const said = page.getByTestId('handed-over').getByTestId('sessions-unreadable');
      await said.waitFor({ timeout: 15_000 });
      expect(await said.textContent()).toContain('1 more session on the site could not be read');
      await row().waitFor();
      expect(await page.getByTestId('handed-over-row').filter({ hasText: 'WO-ODD' }).count()).toBe(0);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        expect(await runModeProblems(page), viewport.name).toEqual([]);
      }
      await expectLargerTextFits(page, 'handed-over-unreadable', said);
      await page.setViewportSize({ width: 1280, height: 900 });
      await fullViewShot(page, 'handed-over-unreadable.png');

      await page.goto(new URL(`/guides/${forklift.id}`, app.shell.url).toString());
      const onGuide = page.getByTestId('suspended-sessions').getByTestId('sessions-unreadable');
      await onGuide.waitFor({ timeout: 15_000 });
      await page.getByTestId('suspended-row').filter({ hasText: WORKORDER }).waitFor();
      await onGuide.scrollIntoViewIfNeeded();
      await fullViewShot(page, 'handed-over-unreadable-guide.png');
    } finally {
      demo.setSchedule(null);
    }
  });

  it("says the site's refusal of the list, and Try again asks at once (Sessions list and guide page)", async () => {
    const REFUSAL = 'The work log is down for maintenance.';
    // Both lists of handed-over sessions refused by the site, while everything else answers: the network
    // state stays online, so nothing but Try again asks again.
    const lists = /\/work_log(\?status=suspended|\/\d+\/suspended)/;
    const refuse = () =>
      demo.setSchedule(onPaths(lists, always({ kind: 'status', status: 500, message: REFUSAL }), 'GET'));
    refuse();
    try {
      await openSessions();
      const refused = page.getByTestId('handed-over-refused');
      await refused.waitFor({ timeout: 15_000 });
      expect(await refused.textContent()).toContain(REFUSAL);
      await expectLargerTextFits(page, 'handed-over-refused', refused);
    } finally {
      demo.setSchedule(null);
    }
    // By keyboard: the focus on Try again, Enter.
    await page.getByTestId('handed-over-refused').getByTestId('retry').focus();
    await page.keyboard.press('Enter');
    await row().getByTestId('take-over').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('handed-over-refused').count()).toBe(0);

    refuse();
    try {
      await page.goto(new URL(`/guides/${forklift.id}`, app.shell.url).toString());
      const onGuide = page.getByTestId('suspended-refused');
      await onGuide.waitFor({ timeout: 15_000 });
      expect(await onGuide.textContent()).toContain(REFUSAL);
      await expectLargerTextFits(page, 'suspended-refused', onGuide);
    } finally {
      demo.setSchedule(null);
    }
    await page.getByTestId('suspended-refused').getByTestId('retry').click();
    await page.getByTestId('suspended-row').filter({ hasText: WORKORDER }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('suspended-refused').count()).toBe(0);
  });

  it('while the site does not answer, shows what this laptop last learned, said as such', async () => {
    demo.setSchedule(always({ kind: 'reset' }));
    try {
      await openSessions();
      await page.getByTestId('handed-over-learned').waitFor({ timeout: 30_000 });
      expect(await row().textContent()).toContain(DEMO_ACCOUNTS.tech2.username);
      expect(await runModeProblems(page)).toEqual([]);
      // Take over by keyboard meanwhile: it needs the site, said so (not "Could not reach 127.0.0.1:…"),
      // and the focus stays on the button (it had dropped to the page's start).
      await row().getByTestId('take-over').focus();
      await page.keyboard.press('Enter');
      // It asks first, the focus on its answer: Enter takes it over.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
        .toBe('take-over-confirm');
      await page.keyboard.press('Enter');
      const said = row().getByRole('alert');
      await said.waitFor({ timeout: 15_000 });
      expect(await said.textContent()).toBe(
        'Taking over needs the site, and it does not answer now. Nothing has changed: try again once it does.',
      );
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
        .toBe('take-over');
      await expectLargerTextFits(page, 'take-over-message', said);
    } finally {
      demo.setSchedule(null);
    }
  });

  it('keeps the rows it last learned when the site, answering again, refuses the list; Try again asks', async () => {
    // From the site away (the previous test) to a site that answers everything but this list.
    await page.getByTestId('handed-over-learned').waitFor();
    const REFUSAL = 'The work log is down for maintenance.';
    demo.setSchedule(
      onPaths(/\/work_log\?status=suspended/, always({ kind: 'status', status: 500, message: REFUSAL }), 'GET'),
    );
    try {
      const refused = page.getByTestId('handed-over-refused');
      await refused.waitFor({ timeout: 30_000 });
      expect(await refused.textContent()).toContain(REFUSAL);
      expect(await row().getByTestId('take-over').count()).toBe(1);
      const learned = (await page.getByTestId('handed-over-learned').textContent()) ?? '';
      expect(learned).toMatch(/^\s*This is what this computer last learned, on/);
    } finally {
      demo.setSchedule(null);
    }
    await page.getByTestId('handed-over-refused').getByTestId('retry').click();
    await page.getByTestId('handed-over-refused').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.getByTestId('handed-over-learned').count()).toBe(0);
    expect(await row().getByTestId('take-over').count()).toBe(1);
  });

  it("asks the site again once this laptop's work has reached it: a hand-over may be among it", async () => {
    // A walk: a colleague's hand-over made here offline went when the site came back, and the list stayed
    // empty (it asked the site as the network came back, before the outbox sent the hand-over).
    await openSessions();
    await row().waitFor({ timeout: 15_000 });
    const tech2 = await signIn(demo.site(), 'tech2');
    const started = await api(demo.site(), 'POST', '/work_log', {
      token: tech2.token,
      json: { guideid: forklift.id, workorderid: 'WO-HANDED-LATER', timestamp: Math.floor(Date.now() / 1000) },
    });
    await api(demo.site(), 'POST', `/work_log/${started.body.entryid}/suspend`, {
      token: tech2.token,
      query: { revisionid: started.body.revisionid },
      json: { timestamp: Math.floor(Date.now() / 1000) },
    });
    // Work of tech1's goes from this laptop (the list's own reasons to ask again, the network's changes, none).
    const { api: appApi } = app.app.services;
    const session = await appApi.startSession({ guideid: forklift.id, workorderid: 'WO-HANDED-MINE' });
    expect(session.ok).toBe(true);
    await page.getByTestId('handed-over-row').filter({ hasText: 'WO-HANDED-LATER' }).waitFor({ timeout: 15_000 });
  });

  it('takes it over from the Sessions list', async () => {
    await openSessions();
    await page.getByTestId('handed-over-learned').waitFor({ state: 'detached', timeout: 30_000 });
    await row()
      .getByTestId('take-over')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        throw new Error(await whatIsShown(), { cause: error });
      });
    // One tap asks, and takes nothing (a stray gloved tap took a colleague's session on the site).
    const tech1 = await signIn(demo.site(), 'tech1');
    const entry = async () =>
      (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as unknown;
    const box = (await row().getByTestId('take-over').boundingBox())!;
    await row().getByTestId('take-over').click();
    const question = row().getByTestId('take-over-question');
    await question.waitFor();
    await fullViewShot(page, 'take-over-question.png');
    // A second tap where Take over was does not land on "Take it over" (the answers stand below and after).
    const under = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('data-testid') ?? null,
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(under).not.toBe('take-over-confirm');
    expect(await question.textContent()).toBe(
      `Take it over from ${DEMO_ACCOUNTS.tech2.username}? It becomes yours on the site.`,
    );
    await expectLargerTextFits(page, 'take-over-question', row());
    await row().getByTestId('take-over-cancel').click();
    await row().getByTestId('take-over').waitFor();
    expect(await entry()).toMatchObject({ status: 'suspended' });
    // By keyboard, Escape puts the question away and the focus back on Take over (it stayed open).
    await row().getByTestId('take-over').focus();
    await page.keyboard.press('Enter');
    await question.waitFor();
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(focused).toBe('take-over');
    await row().getByTestId('take-over').click();
    await row().getByTestId('take-over-confirm').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    expect(await page.getByTestId('session-workorder').textContent()).toBe(WORKORDER);
    await expect.poll(entry, { timeout: 30_000 }).toMatchObject({ status: 'started', userid: tech1.userid });
    // Its report names whom it was taken over from and when, beside the technician who goes on with it.
    const id = /\/sessions\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.goto(new URL(`/sessions/${id}/report`, app.shell.url).toString());
    const from = page.getByTestId('report-taken-from');
    await from.waitFor();
    expect(plain((await from.locator('dd').textContent()) ?? '')).toBe(
      `${DEMO_ACCOUNTS.tech2.username}, who handed it over ${await localTime(suspendedAt)}`,
    );
    await expectLargerTextFits(page, 'report-taken-from', from);
  });

  it('says in its question that this job is open here already: taken over, the site has it twice', async () => {
    // A walk back after days offline: tech1 was half-way through a work order that tech2 started, and handed
    // over, on another computer meanwhile. One tap on Take over and one on "Take it over" made a second entry of
    // the job on the site under tech1's name, with not a word of the session tech1 had open on it.
    const WO = 'WO-HANDED-LATER';
    const mine = unwrap(await app.app.services.api.startSession({ guideid: forklift.id, workorderid: WO }));
    await openSessions();
    const later = page.getByTestId('handed-over-row').filter({ hasText: WO });
    await later.getByTestId('take-over').click();
    const question = later.getByTestId('take-over-question');
    await question.waitFor();
    expect(plain(await question.textContent())).toBe(
      `Take it over from ${DEMO_ACCOUNTS.tech2.username}? It becomes yours on the site. You have work order ` +
        `${WO} open on this guide already (in progress, started ${await localTime(mine.startedAt)}): taking ` +
        'this over makes a second entry of the job on the site.',
    );
    await expectLargerTextFits(page, 'take-over-question-own-open', later);
    await later.getByTestId('take-over-cancel').click();
    await later.getByTestId('take-over').waitFor();
  });

  it('ran without script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});

// The other side: tech1's sessions of this computer (handed over, or running) that the site decided since, with
// nothing of them queued here. Each sync looks (core worklog/site-look.ts); the Sessions list says what it learned.
describe('the Sessions list of what the site decided of your sessions, after a sync', () => {
  /**
   * tech1's session of the forklift check, started and handed over from this computer, both on the site, with
   * `truck` typed in its Truck number first when given.
   */
  async function handedOverHere(workorderid: string, truck?: string): Promise<{ id: string; entryid: number }> {
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid }));
    if (truck !== undefined) {
      const { fieldGuid, stepid } = await truckNumber();
      unwrap(await core.saveStepData({ sessionId: started.id, stepid, values: [{ fieldGuid, value: truck }] }));
    }
    unwrap(await core.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    return { id: started.id, entryid: unwrap(await core.getSession(started.id)).entryid! };
  }
  /** The screen checks at each size, then back to the file's own. */
  async function fitsEverySize(): Promise<void> {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await runModeProblems(page), viewport.name).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  /** The forklift check's Truck number field, and its step. */
  async function truckNumber(): Promise<{ fieldGuid: string; stepid: number }> {
    const steps = unwrap(await app.app.services.api.getGuide(forklift.id)).steps;
    const step = steps.find((s) => s.form?.fields.some((f) => f.label === 'Truck number'))!;
    return { fieldGuid: step.form!.fields.find((f) => f.label === 'Truck number')!.fieldGuid, stepid: step.stepid };
  }
  /** The session opened on the truck number's step, its form ready: the field on the site and on screen. */
  async function openTruckNumber(
    sessionId: string,
  ): Promise<{ truck: { fieldGuid: string; stepid: number }; field: Locator }> {
    const truck = await truckNumber();
    const steps = unwrap(await app.app.services.api.getGuide(forklift.id)).steps;
    const at = steps.findIndex((s) => s.stepid === truck.stepid) + 1;
    await page.goto(new URL(`/sessions/${sessionId}?step=${at}`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    return { truck, field: page.locator(`[data-testid="form-field"][data-field-guid="${truck.fieldGuid}"]`) };
  }
  /** `who` does `transitions` to the entry on the site (another computer), each on its current revision. */
  async function onSite(who: 'tech1' | 'tech2', entryid: number, transitions: string[]): Promise<void> {
    const { token } = await signIn(demo.site(), who);
    for (const transition of transitions) {
      const { revisionid } = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token })).body as {
        revisionid: number;
      };
      const done = await api(demo.site(), 'POST', `/work_log/${entryid}/${transition}`, {
        token,
        query: { revisionid },
        json: {},
      });
      expect(done.status).toBe(200);
    }
  }
  /** An admin deletes the entry on the site, on its current revision. */
  async function deleteOnSite(entryid: number): Promise<void> {
    const admin = await signIn(demo.site(), 'admin');
    const { revisionid } = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: admin.token })).body as {
      revisionid: number;
    };
    const removed = await api(demo.site(), 'DELETE', `/work_log/${entryid}`, {
      token: admin.token,
      query: { revisionid },
    });
    expect(removed.status).toBe(204);
  }
  const mine = (workorderid: string) => page.getByTestId('session-row').filter({ hasText: workorderid });
  /** The Sessions list, opened by its address: a running session's screen (run mode) has no top bar. */
  async function mySessions(): Promise<void> {
    await page.goto(new URL('/sessions', app.shell.url).toString());
    await page.getByTestId('sessions').waitFor();
  }
  const openSection = () => page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Open' }) });

  /** After a sync, the row of `WO` among the open says tech2 handed it back at `at`, one value changed. */
  async function syncAndSeeHandedBack(WO: string, at: number): Promise<void> {
    expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    const said = mine(WO).getByTestId('session-row-handed-back');
    await said.waitFor({ timeout: 5_000 }).catch(async (error: unknown) => {
      throw new Error(`The row said: ${plain(await mine(WO).textContent())}`, { cause: error });
    });
    expect(plain(await said.textContent())).toBe(
      `${DEMO_ACCOUNTS.tech2.username} had it and handed it back on ${await localTime(at)} · 1 value changed`,
    );
    expect(await mine(WO).getByTestId('session-row-status').textContent()).toBe('Handed over');
    expect(await openSection().getByTestId('session-row').filter({ hasText: WO }).count()).toBe(1);
  }

  it('taken back on another computer: theirs and in progress, not "Handed over" with Take it back', async () => {
    const WO = 'WO-BACK-ELSEWHERE';
    const { id, entryid } = await handedOverHere(WO);
    await onSite('tech1', entryid, ['assume']);
    expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    expect(await mine(WO).getAttribute('data-status')).toBe('started');
    expect(plain(await mine(WO).textContent())).toContain('In progress');
    expect(await openSection().getByTestId('session-row').filter({ hasText: WO }).count()).toBe(1);
    await page.goto(new URL(`/sessions/${id}`, app.shell.url).toString());
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    expect(await page.getByTestId('session-assume').count()).toBe(0);
    expect(unwrap(await app.app.services.api.getSession(id)).pendingActions).toBe(0);
  });

  it('taken by a colleague and handed back: who had it and the values they changed, list and session', async () => {
    const WO = 'WO-HANDED-BACK';
    const { id, entryid } = await handedOverHere(WO, 'FL-MINE');
    await onSite('tech2', entryid, ['assume']);
    await officeSaves(demo.site(), { entryid, guideid: forklift.id }, await truckNumber(), 'FL-THEIRS', 'tech2');
    await onSite('tech2', entryid, ['suspend']);
    const tech1 = await signIn(demo.site(), 'tech1');
    const at = (
      (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
        paused_at: number;
      }
    ).paused_at;
    // It said "Handed over" alone.
    await syncAndSeeHandedBack(WO, at);
    await fitsEverySize();
    await expectLargerTextFits(page, 'handed-back-row', mine(WO));
    await fullViewShot(page, 'handed-back-row.png');

    await mine(WO).click();
    await page.locator(`[data-testid="session"][data-session-id="${id}"]`).waitFor();
    const notice = page.getByTestId('session-handed-back');
    await notice.waitFor();
    expect(plain(await notice.textContent())).toContain(
      `${DEMO_ACCOUNTS.tech2.username} had this session on the site and handed it back on ${await localTime(at)}.`,
    );
    expect(plain(await notice.getByTestId('session-handed-back-changed').textContent()).trim()).toBe(
      'Truck number: FL-THEIRS (was FL-MINE)',
    );
    // The step shows the site's value.
    await page
      .locator('input[value="FL-THEIRS"]')
      .or(page.getByText('FL-THEIRS', { exact: true }))
      .first()
      .waitFor();
    await fitsEverySize();
    await expectLargerTextFits(page, 'handed-back-notice', notice);
    await fullViewShot(page, 'handed-back-session.png');
    // Take it back: theirs again, and the word goes.
    await page.getByTestId('session-assume').click();
    await page.locator(`[data-testid="session"][data-status="started"]`).waitFor();
    expect(await page.getByTestId('session-handed-back').count()).toBe(0);
    expect(unwrap(await app.app.services.api.flushOutbox()).failed).toBe(0);
  });

  it('taken over on the site, then handed back: theirs again among the open, who had it', async () => {
    const WO = 'WO-TAKEN-BACK';
    const { id, entryid } = await handedOverHere(WO, 'FL-MINE');
    await onSite('tech2', entryid, ['assume']);
    expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    expect(await mine(WO).getByTestId('session-row-status').textContent()).toBe('Taken over');
    await officeSaves(demo.site(), { entryid, guideid: forklift.id }, await truckNumber(), 'FL-THEIRS', 'tech2');
    await onSite('tech2', entryid, ['suspend']);
    const tech1 = await signIn(demo.site(), 'tech1');
    const { paused_at: at } = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
      paused_at: number;
    };
    // It stayed "Taken over", read-only, out of the open work.
    await syncAndSeeHandedBack(WO, at);
    await fitsEverySize();
    await expectLargerTextFits(page, 'taken-back-row', mine(WO));

    await mine(WO).click();
    await page.locator(`[data-testid="session"][data-session-id="${id}"]`).waitFor();
    const notice = page.getByTestId('session-handed-back');
    await notice.waitFor();
    expect(plain(await notice.getByTestId('session-handed-back-changed').textContent()).trim()).toBe(
      'Truck number: FL-THEIRS (was FL-MINE)',
    );
    await fitsEverySize();
    await expectLargerTextFits(page, 'taken-back-notice', notice);
    await fullViewShot(page, 'taken-back-session.png');
    // The Sync centre's card that said it was taken over says it came back.
    await page.getByTestId('nav-sync').click();
    const card = page.getByTestId('conflict').filter({ hasText: WO });
    await card.waitFor();
    expect(plain(await card.textContent())).toContain(
      `Since then, ${DEMO_ACCOUNTS.tech2.username} handed it back to you on the site.`,
    );
    await fitsEverySize();
    await expectLargerTextFits(page, 'taken-back-card', card);
    await fullViewShot(page, 'taken-back-card.png');
    await page.goto(new URL(`/sessions/${id}`, app.shell.url).toString());
    await page.locator(`[data-testid="session"][data-session-id="${id}"]`).waitFor();
    // Take it back: theirs and running, sent under their own name.
    await page.getByTestId('session-assume').click();
    await page.locator(`[data-testid="session"][data-status="started"]`).waitFor();
    expect(unwrap(await app.app.services.api.flushOutbox()).failed).toBe(0);
    const taken = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
      userid: number;
      status: string;
    };
    expect(taken).toMatchObject({ userid: tech1.userid, status: 'started' });
  });

  it('deleted on the site: said as removed, read-only with its values, among the ended', async () => {
    const WO = 'WO-REMOVED-ON-SITE';
    const { id, entryid } = await handedOverHere(WO, 'FL-REMOVED');
    await deleteOnSite(entryid);
    expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    // It said "Handed over", among the open sessions.
    expect(plain(await mine(WO).textContent())).toContain('Removed on the site');
    expect(await mine(WO).getByTestId('session-row-status').textContent()).toBe('Removed on the site');
    expect(await openSection().getByTestId('session-row').filter({ hasText: WO }).count()).toBe(0);
    const ended = page.locator('section.card').filter({ has: mine(WO) });
    expect(await ended.getByRole('heading').first().textContent()).toBe('Finished, cancelled and removed on the site');
    await fullViewShot(page, 'handed-over-removed-row.png');

    await mine(WO).click();
    await page.locator(`[data-testid="session"][data-session-id="${id}"]`).waitFor();
    const banner = page.getByTestId('session-site-state');
    await banner.waitFor();
    expect(plain(await banner.textContent())).toContain(
      "Deleted from the site's work log. This session is read-only here.",
    );
    expect(await page.getByTestId('session-status').first().textContent()).toBe('Removed on the site');
    expect(await page.getByTestId('session-assume').count()).toBe(0);
    // What was typed is still there to read.
    await page.getByText('FL-REMOVED').or(page.locator('input[value="FL-REMOVED"]')).first().waitFor();
    await fitsEverySize();
    await expectLargerTextFits(page, 'handed-over-removed-banner', banner);
    await fullViewShot(page, 'handed-over-removed-session.png');
    expect(unwrap(await app.app.services.api.getSession(id)).pendingActions).toBe(0);
    // Its card in the sync centre lists what was typed, to copy into a new session.
    await page.goto(new URL('/sync', app.shell.url).toString());
    const card = page.getByTestId('conflict').filter({ hasText: WO });
    await card.waitFor();
    expect(plain(await card.textContent())).toContain('Truck number: FL-REMOVED');
    // It said "Understood, keep the site's state": the site has none of it.
    expect(plain(await card.getByTestId('keep-theirs').textContent()).trim()).toBe('Understood');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: artifact('handed-over-removed-card.png') });
    // Read and closed, the session's line says it is not on the site: it said "Saved work is on the site" under
    // "Deleted from the site's work log."
    await card.getByTestId('keep-theirs').click();
    await card.waitFor({ state: 'detached' });
    await page.goto(new URL(`/sessions/${id}`, app.shell.url).toString());
    await banner.waitFor();
    expect(plain(await page.getByTestId('session-sync').textContent()).trim()).toBe(
      'Not on the site: kept on this computer only',
    );
  });

  it('running, deleted on the site before its value went: removed there, not an action failed for ever', async () => {
    // A walk: the save was answered 404 "No such work-log entry", the field said "The site did not take this
    // value ... Change it and save again", the session "In progress · 1 action failed" for ever.
    const WO = 'WO-RUNNING-REMOVED';
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid: WO }));
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    const entryid = unwrap(await core.getSession(started.id)).entryid!;
    await deleteOnSite(entryid);
    const { fieldGuid, stepid } = await truckNumber();
    unwrap(await core.saveStepData({ sessionId: started.id, stepid, values: [{ fieldGuid, value: 'FL-GONE' }] }));
    expect(unwrap(await core.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });

    await page.goto(new URL(`/sessions/${started.id}`, app.shell.url).toString());
    const banner = page.getByTestId('session-site-state');
    await banner.waitFor();
    expect(plain(await banner.textContent())).toContain(
      "Deleted from the site's work log. This session is read-only here.",
    );
    expect(await page.getByTestId('session-status').first().textContent()).toBe('Removed on the site');
    await page.getByText('FL-GONE').or(page.locator('input[value="FL-GONE"]')).first().waitFor();
    expect(plain(await page.locator('body').textContent())).not.toContain('action failed');
    await fitsEverySize();
    await expectLargerTextFits(page, 'running-removed-banner', banner);
    await fullViewShot(page, 'running-removed-session.png');
    await page.goto(new URL('/sync', app.shell.url).toString());
    const card = page.getByTestId('conflict').filter({ hasText: WO });
    await card.waitFor();
    expect(plain(await card.textContent())).toContain('Truck number: FL-GONE');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: artifact('running-removed-card.png') });
  });

  it('running, cancelled on the site by a supervisor: said cancelled among the ended, not "In progress"', async () => {
    const WO = 'WO-CANCELLED-ON-SITE';
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid: WO }));
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    const { entryid } = unwrap(await core.getSession(started.id));
    const admin = await signIn(demo.site(), 'admin');
    const { revisionid } = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: admin.token })).body as {
      revisionid: number;
    };
    const cancel = `/work_log/${entryid}/cancel`;
    expect(
      (await api(demo.site(), 'POST', cancel, { token: admin.token, query: { revisionid }, json: {} })).status,
    ).toBe(200);
    expect(unwrap(await core.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    // It said "In progress", among the open sessions, its time counting on.
    expect(plain(await mine(WO).textContent())).toContain('Cancelled');
    expect(await mine(WO).getAttribute('data-status')).toBe('cancelled');
    expect(await openSection().getByTestId('session-row').filter({ hasText: WO }).count()).toBe(0);
    expect(await mine(WO).getByTestId('session-row-trouble').textContent()).toBe('1 conflict');
    await fullViewShot(page, 'cancelled-on-site-row.png');
    await mine(WO).click();
    const banner = page.getByTestId('session-site-state');
    await banner.waitFor();
    expect(plain(await banner.textContent())).toMatch(
      /^Cancelled by you on another computer or by a supervisor on the site, at .+\. This session is read-only here\./,
    );
  });

  it('running, paused on another computer: said paused here, its time stopped, Resume offered', async () => {
    const WO = 'WO-PAUSED-ELSEWHERE';
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid: WO }));
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    const entryid = unwrap(await core.getSession(started.id)).entryid!;
    const tech1 = await signIn(demo.site(), 'tech1');
    await onSite('tech1', entryid, ['pause']);
    expect(unwrap(await core.syncNow()).status).toBe('complete');
    await mySessions();
    await mine(WO).waitFor();
    // It said "In progress", its time counting on, while it was paused there.
    expect(await mine(WO).getAttribute('data-status')).toBe('paused');
    expect(await mine(WO).getByTestId('session-row-status').textContent()).toBe('Paused');
    expect(await openSection().getByTestId('session-row').filter({ hasText: WO }).count()).toBe(1);
    // And why, once: it was paused there with no word here (not a conflict: nothing of theirs was lost).
    const { paused_at: pausedAt } = (await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token }))
      .body as { paused_at: number };
    const why = `Paused on another computer or on the site at ${await localTime(pausedAt)}`;
    expect(plain(await mine(WO).getByTestId('session-row-from-site').textContent())).toBe(why);
    expect(unwrap(await core.getSession(started.id)).openConflicts).toBe(0);
    await fitsEverySize();
    await expectLargerTextFits(page, 'paused-elsewhere-row', mine(WO));
    await mine(WO).click();
    await page.locator(`[data-testid="session"][data-session-id="${started.id}"][data-status="paused"]`).waitFor();
    const said = page.getByTestId('session-from-site');
    expect(plain(await said.textContent())).toBe(`${why}.`);
    expect(await page.getByTestId('paused-note').count()).toBe(1);
    await fitsEverySize();
    await fullViewShot(page, 'paused-elsewhere-session.png');
    // At 1024x600 with Larger text (run mode: no status bar, the text size as its toggle keeps it) the line is
    // whole in view, above the step, and the step's first field too.
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.reload();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const parts = { ...STEP_PARTS, 'paused elsewhere line': '[data-testid="session-from-site"]' };
    const problems = [...(await placedProblems(page, parts, '1024x600-larger')), ...(await runModeProblems(page))];
    await page.screenshot({ path: artifact('paused-elsewhere-session-1024x600-larger.png') });
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    expect(problems).toEqual([]);
    // Resume here goes to the site on its revision, under tech1's own name.
    await page.getByTestId('session-resume').click();
    await page.locator(`[data-testid="session"][data-status="started"]`).waitFor();
    // Resumed here: the line was of the site's pause, and goes.
    expect(await page.getByTestId('session-from-site').count()).toBe(0);
    expect(unwrap(await core.flushOutbox()).failed).toBe(0);
    expect(unwrap(await core.getSession(started.id))).toMatchObject({ pendingActions: 0, openConflicts: 0 });
    const onSiteNow = await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: tech1.token });
    expect(onSiteNow.body).toMatchObject({ status: 'started', userid: tech1.userid });
  });

  it('running, a value saved and paused on another computer while one typed here is a draft: said there', async () => {
    const WO = 'WO-DRAFT-ELSEWHERE';
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid: WO }));
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    const entryid = unwrap(await core.getSession(started.id)).entryid!;
    const { truck, field } = await openTruckNumber(started.id);
    await field.locator('input').fill('FL-HERE');
    await field.getByTestId('draft-kept').waitFor();
    // On their other computer: a truck number saved, then a pause; this computer's sync follows both.
    await officeSaves(demo.site(), { entryid, guideid: forklift.id }, truck, 'FL-THERE', 'tech1');
    await onSite('tech1', entryid, ['pause']);
    expect(unwrap(await core.syncNow()).status).toBe('complete');
    await page.locator(`[data-testid="session"][data-status="paused"]`).waitFor();
    // The field shows what was typed here; Save would have replaced FL-THERE with no word of it.
    const said = field.getByTestId('draft-changed-under');
    await said.waitFor();
    expect(
      plain(await said.textContent())
        .replace(/ +/g, ' ')
        .trim(),
    ).toBe('Not saved yet · since you typed, another computer or the site saved FL-THERE: Save replaces it');
    expect(await field.locator('input').inputValue()).toBe('FL-HERE');
    // Opened again (the typing kept as a draft), at 1024x600 and 800x1280 with Larger text and at 1366x768: the
    // field says it was restored, in its one line of what Save does (the restored-typing notice over the step, as
    // well, put the hour meter under the step bar at 1024x600), and the whole step stands between the header and
    // the step bar, every field's note line too.
    const restoredWords =
      'Restored, not saved yet · since you typed, another computer or the site saved FL-THERE: Save replaces it';
    const problems: string[] = [];
    for (const [size, large] of [
      [VIEWPORTS[1], true],
      [VIEWPORTS[2], true],
      [VIEWPORTS[0], false],
    ] as const) {
      const name = `${size.name}${large ? '-larger' : ''}`;
      await setLargerText(page, large);
      await page.setViewportSize(size);
      await page.reload();
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
      await said.waitFor();
      const words = plain(await said.textContent())
        .replace(/ +/g, ' ')
        .trim();
      if (words !== restoredWords) problems.push(`${name}: the field says "${words}"`);
      const notices = await page.getByTestId('draft-restored').count();
      if (notices > 0) problems.push(`${name}: the restored-typing notice is over the step as well`);
      const parts = { ...STEP_PARTS, 'changed-under line': '[data-testid="draft-changed-under"]' };
      problems.push(...(await placedProblems(page, parts, name)), ...(await fieldsOutOfRoom(page, name)));
      problems.push(...(await runModeProblems(page)).map((line) => `${name}: ${line}`));
      await page.screenshot({ path: artifact(`draft-changed-under-${name}.png`) });
    }
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
    // Save replaces it, as said: the line goes, and the notice does not come back to say typing restored.
    await page.getByTestId('step-save').click();
    await said.waitFor({ state: 'detached' });
    expect(await field.getByTestId('draft-kept').count()).toBe(0);
    expect(await page.getByTestId('draft-restored').count()).toBe(0);
    const values = unwrap(await core.getSession(started.id)).values;
    expect(values.find((v) => v.fieldGuid === truck.fieldGuid)?.value).toBe('FL-HERE');
  });

  it('running, a value saved here and changed on another computer: the field says what was saved here', async () => {
    const WO = 'WO-VALUE-ELSEWHERE';
    const core = app.app.services.api;
    const started = unwrap(await core.startSession({ guideid: forklift.id, workorderid: WO }));
    const { truck, field } = await openTruckNumber(started.id);
    await field.locator('input').fill('FL-HERE');
    await page.getByTestId('step-save').click();
    await field.getByTestId('draft-kept').waitFor({ state: 'detached' });
    expect(unwrap(await core.flushOutbox()).pending).toBe(0);
    const entryid = unwrap(await core.getSession(started.id)).entryid!;
    // On their other computer (or the office, on the site): the truck number changed; this computer's sync
    // follows it into the field, which took FL-THERE with no word: the technician's FL-HERE gone unseen.
    await officeSaves(demo.site(), { entryid, guideid: forklift.id }, truck, 'FL-THERE', 'tech1');
    expect(unwrap(await core.syncNow()).status).toBe('complete');
    await expect.poll(() => field.locator('input').inputValue()).toBe('FL-THERE');
    const said = field.getByTestId('field-changed-elsewhere');
    const words = 'Since you saved FL-HERE, another computer or the site changed it';
    expect(
      plain(await said.textContent())
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe(words);
    expect(unwrap(await core.getSession(started.id)).openConflicts).toBe(0);
    // Nobody paused or resumed it there: the header says nothing of its state (it said "Resumed on another
    // computer or on the site").
    expect(await page.getByTestId('session-from-site').count()).toBe(0);
    // Whole at 1024x600 with Larger text, the step's fields and note lines above the step bar.
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.setViewportSize(VIEWPORTS[1]);
    await page.reload();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await said.waitFor();
    const parts = { ...STEP_PARTS, 'changed-elsewhere line': '[data-testid="field-changed-elsewhere"]' };
    const problems = [
      ...(await placedProblems(page, parts, '1024x600-larger')),
      ...(await fieldsOutOfRoom(page, '1024x600-larger')),
      ...(await runModeProblems(page)),
    ];
    await page.screenshot({ path: artifact('field-changed-elsewhere-1024x600-larger.png') });
    // The Finish review says it too, its list in view at 1024x600 with Larger text: what is signed off is the
    // site's FL-THERE, not what the technician entered.
    await page.getByTestId('session-finish').click();
    const changed = page.getByTestId('review-changed-value');
    await changed.waitFor();
    expect(plain(await changed.textContent()).replace(/\s+/g, ' ')).toContain(
      'Truck number: FL-THERE (you saved FL-HERE)',
    );
    await changed.scrollIntoViewIfNeeded();
    problems.push(formatProblems(await checkScreen(page, 'review-changed-larger', VIEWPORTS[1]!)));
    await page.screenshot({ path: artifact('review-changed-elsewhere-1024x600-larger.png') });
    await page.getByTestId('review-back').click();
    await changed.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems.filter((line) => line !== '')).toEqual([]);
    // The session's report says it under the value and in the values on the site (it showed FL-THERE as if typed
    // here), and the Sessions list counts it on the session's row.
    await page.goto(new URL(`/sessions/${started.id}/report`, app.shell.url).toString());
    await page.locator('[data-testid="session-report"][data-ready="true"]').waitFor();
    const report = `Saved here as "FL-HERE", then changed on another computer or the site (seen`;
    expect(plain(await page.getByTestId('report-changed').textContent())).toContain(report);
    expect(plain(await page.getByTestId('report-table-changed').textContent())).toContain(report);
    await openSessions();
    const sessionRow = page.getByTestId('session-row').filter({ hasText: WO });
    expect(plain(await sessionRow.getByTestId('session-row-changed').textContent()).replace(/ +/g, ' ')).toBe(
      'A value you saved changed on another computer or the site',
    );
    await expectLargerTextFits(page, 'sessions-value-changed', sessionRow);
    await sessionRow.click();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    // Saved again here: the technician's once more, nothing to say.
    await field.locator('input').fill('FL-AGAIN');
    await page.getByTestId('step-save').click();
    await said.waitFor({ state: 'detached' });
    expect(unwrap(await core.flushOutbox()).failed).toBe(0);
  });

  it('ran without script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
