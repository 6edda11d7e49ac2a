import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkSession } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { createCanvas, encodePng, fillRect } from '../../server/media/png.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import {
  connectAndSyncDemo,
  fullViewShot,
  openDemoApp,
  sendNowUnlessGone,
  withAnswersHeld,
  type startApp,
} from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// Acceptance 1 of issue 5 in Chromium: with the demo site stopped, three work sessions fill all nine
// field types (a photo, a video, a document), pause, resume and finish, a reload mid-typing brings the
// draft back; with the site back the outbox drains and the site's entries match the sessions.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

const FORKLIFT = { id: 10, title: 'Forklift Daily Pre-Shift Inspection', workorder: 'WO-E2E-FORK' };
const TANK = { id: 3, title: 'Drain and Inspect the Air Compressor Tank', workorder: 'WO-E2E-TANK' };
const BELT = { id: 2, title: 'Replace the Drive Belt on a 60-Gallon Air Compressor' };
const MIG = { id: 13, title: 'Replace the Contact Tip and Nozzle on a MIG Torch', workorder: 'WO-E2E-MIG' };
const NOTES = 'Rusty water, about a cup.\nDrain valve sticks a little.';

function photo(): Buffer {
  const canvas = createCanvas(64, 48, [40, 110, 90]);
  fillRect(canvas, 16, 12, 32, 24, [240, 200, 60]);
  return encodePng(canvas);
}

/** What the test typed, by field label, to compare with the site's work data. */
const typed = new Map<string, string | RegExp>();

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function openGuide(guide: { id: number; title: string }): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('guide-row').filter({ hasText: guide.title }).first().click();
  await page
    .getByTestId('guide')
    .and(page.locator(`[data-guideid="${guide.id}"]`))
    .waitFor();
}

async function startSession(guide: { id: number; title: string; workorder: string }): Promise<string> {
  await openGuide(guide);
  await page.getByTestId('workorder-input').fill(guide.workorder);
  await page.getByTestId('start-session-button').click();
  await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
  const session = page.getByTestId('session');
  await session.waitFor();
  expect(await page.getByTestId('session-workorder').textContent()).toBe(guide.workorder);
  return (await session.getAttribute('data-session-id'))!;
}

const stepCount = () => page.locator('[data-testid^="step-nav-"]').count();

async function onStep(n: number): Promise<void> {
  await page.locator(`[data-testid="step-nav-${n}"][aria-current="step"]`).waitFor();
  if ((await page.getByTestId('step-form').count()) > 0)
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
}

/** Fills every field of the step on screen, one way per field type. */
async function fillStep(): Promise<void> {
  for (const field of await page.getByTestId('form-field').all()) {
    const type = (await field.getAttribute('data-type'))!;
    const label = (await field.locator('label').first().textContent())!.trim();
    // The sign-off field is filled by the sign-off at Finish (issue 28), not typed.
    if ((await field.locator('input:disabled').count()) > 0) {
      typed.set(label, new RegExp(`^Signed off by ${DEMO_ACCOUNTS.tech1.username} \\(`));
      continue;
    }
    await fillField(field, type, label);
  }
}

async function fillField(field: Locator, type: string, label: string): Promise<void> {
  switch (type) {
    case 'Text Input':
      await field.locator('input').fill('FL-07');
      typed.set(label, 'FL-07');
      break;
    case 'Numeric Input':
      await field.locator('input').fill('1234.5');
      typed.set(label, '1234.5');
      break;
    case 'Text Area':
      await field.locator('textarea').fill(NOTES);
      typed.set(label, NOTES);
      break;
    case 'Checkbox':
      await field.locator('input[type="checkbox"]').check();
      typed.set(label, '1');
      break;
    case 'Radios':
      await field.getByLabel('Rusty').check();
      typed.set(label, 'Rusty');
      break;
    case 'Select': {
      const option = (await field.locator('option:not([disabled])').first().textContent())!;
      await field.locator('select').selectOption(option);
      typed.set(label, option);
      break;
    }
    default: {
      const file =
        type === 'Image'
          ? { name: 'drain-valve.png', mimeType: 'image/png', buffer: photo() }
          : type === 'Video'
            ? {
                name: 'horn-test.mp4',
                mimeType: 'video/mp4',
                buffer: Buffer.from('not really a video, but bytes the site keeps'),
              }
            : {
                name: 'consumables-log.pdf',
                mimeType: 'application/pdf',
                buffer: Buffer.from('%PDF-1.4\n% consumables log\n%%EOF\n'),
              };
      await field.locator('input[type="file"]').setInputFiles(file);
      await field.getByTestId('attachment').filter({ hasText: file.name }).waitFor();
      typed.set(label, /^\d+$/);
    }
  }
}

/** Fills and saves the steps from `from` on, moving with Next step; the last one is saved with Save. */
async function fillRemainingSteps(from: number): Promise<void> {
  const count = await stepCount();
  for (let n = from; n <= count; n++) {
    await onStep(n);
    await fillStep();
    if (n < count) await page.getByTestId('step-next').click();
    else if ((await page.getByTestId('step-save').count()) > 0) await page.getByTestId('step-save').click();
  }
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="draft-kept"]').length === 0);
}

async function finish(): Promise<void> {
  await page.getByTestId('session-finish').click();
  // Finish opens the review (issue 16); every step was filled, so it lists no empty ones.
  await page.getByTestId('finish-review').waitFor();
  await page.getByTestId('sign-off-name').fill(DEMO_ACCOUNTS.tech1.username);
  await page.getByTestId('review-confirm').click();
  await page.locator('[data-testid="session"][data-status="complete"]').waitFor();
  expect(await page.getByTestId('session-actions').getByRole('button').count()).toBe(0);
}

const sessionOf = async (id: string): Promise<WorkSession> => {
  const result = await app.app.services.api.getSession(id);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

const sessionIds: string[] = [];
let token = '';

describe('a work session offline, replayed when the site is back', () => {
  it('syncs the demo workshop from the sync centre, then loses the site', async () => {
    await connectAndSyncDemo(page, app.shell.url);
    expect(await page.getByTestId('sync-last-error').count()).toBe(0);
    expect(await page.getByTestId('status-chip').getAttribute('data-unsent')).toBe('0');
    await demo.site().close();
  });

  it('refuses to start without a work order, then walks the forklift inspection with a pause', async () => {
    await openGuide(FORKLIFT);
    // Others' handed-over sessions need the site: offline the guide shows none and no error.
    expect(await page.getByTestId('suspended-sessions').count()).toBe(0);
    await page.getByTestId('start-session-button').click();
    expect(await page.getByTestId('workorder-problem').textContent()).toBe('Enter the work order number.');
    const id = await startSession(FORKLIFT);
    sessionIds.push(id);
    expect(await page.getByTestId('session-status').textContent()).toBe('In progress');

    // Step 1: a Text Input and a Numeric Input; a word in the number field is refused beside it.
    await onStep(1);
    const truck = page.locator('[data-testid="form-field"][data-type="Text Input"]');
    expect(await truck.locator('input').getAttribute('placeholder')).toBe('e.g. FL-07');
    const meter = page.locator('[data-testid="form-field"][data-type="Numeric Input"]');
    await truck.locator('input').fill('FL-07');
    await meter.locator('input').fill('about 1200');
    await page.getByTestId('step-next').click();
    expect(await meter.getByTestId('field-error').textContent()).toBe('Hour meter reading: a number, like 12 or 3.5');
    await onStep(1);
    await fullViewShot(page, 'session-form.png');

    await page.getByTestId('session-pause').click();
    await page.locator('[data-testid="session"][data-status="paused"]').waitFor();
    expect(await page.getByTestId('session-actions').getByRole('button').allTextContents()).toEqual(['Resume']);
    // Read once the pause has been counting for a second: the active time shown at the click may still
    // take the pause's own instant (a tick that had not shown the last second yet), then stays.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="timer-paused"]')?.textContent !== '0:00:00',
      null,
      { timeout: 5_000 },
    );
    const frozen = await page.getByTestId('timer-active').textContent();
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('timer-active').textContent()).toBe(frozen);
    await page.getByTestId('session-resume').click();
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    expect(await page.getByTestId('session-actions').getByRole('button').allTextContents()).toEqual([
      'Pause',
      'Hand over',
      // It opens the review first, as the step bar's "Finish…" does.
      'Finish…',
      'Cancel session',
    ]);
    // The pause and resume changed the session under the form: what was typed stays.
    expect(await truck.locator('input').inputValue()).toBe('FL-07');
    expect(await meter.locator('input').inputValue()).toBe('about 1200');

    await fillRemainingSteps(1);
    await finish();
    const session = await sessionOf(id);
    expect(session.pauseSeconds).toBeGreaterThanOrEqual(2);
    expect(session.endedAt).not.toBeNull();
  });

  it('brings back what was being typed after a reload, with a notice', async () => {
    const id = await startSession(TANK);
    sessionIds.push(id);
    const count = await stepCount();
    let formStep = 0;
    for (let n = 1; n <= count; n++) {
      await onStep(n);
      if ((await page.locator('[data-testid="form-field"][data-type="Text Area"]').count()) > 0) {
        formStep = n;
        break;
      }
      await page.getByTestId('step-next').click();
    }
    expect(formStep).toBeGreaterThan(0);
    const notes = page.locator('[data-testid="form-field"][data-type="Text Area"]');
    expect(await notes.locator('textarea').getAttribute('placeholder')).toBe(
      'Anything unusual: smell, colour, amount of water',
    );
    await page.locator('[data-testid="form-field"][data-type="Radios"]').getByLabel('Rusty').check();
    await notes.locator('textarea').pressSequentially(NOTES, { delay: 5 });
    await notes.getByTestId('draft-kept').waitFor();

    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    await onStep(formStep);
    expect(await page.getByTestId('draft-restored').textContent()).toContain(
      'Restored your unsaved typing in step ' + formStep,
    );
    expect(await notes.locator('textarea').inputValue()).toBe(NOTES);
    expect(await page.locator('[data-testid="form-field"][data-type="Radios"]').getByLabel('Rusty').isChecked()).toBe(
      true,
    );
    await fullViewShot(page, 'draft-restored.png');

    typed.set('What did the condensate look like?', 'Rusty');
    typed.set('Notes on the tank and drain', NOTES);
    await page.getByTestId('step-next').click();
    // Saved by Next: the notice of unsaved typing goes (it stayed, saying "unsaved" of a saved step).
    await page.getByTestId('draft-restored').waitFor({ state: 'detached' });
    await fillRemainingSteps(formStep + 1);
    await finish();
    const session = await sessionOf(id);
    expect(session.values.find((v) => v.value === NOTES)).toBeDefined();

    // Finishing offers "Mark as done" for the guide (issue 30): marked at once, waiting for the site.
    const offer = page.getByTestId('session-mark-done');
    await offer.getByTestId('guide-mark-done').click();
    expect(await offer.getByTestId('guide-done').textContent()).toContain('Marked as done · waiting to be sent');
    const marks = await app.app.services.api.getGuideMarks(TANK.id);
    expect(marks.ok && marks.value.completed).toBe(true);
    // "Done" and its Undo as a technician with gloves meets them: at three sizes with Larger text.
    await expectLargerTextFits(page, 'session-marked-done', offer);
  });

  it('attaches a document on the MIG torch guide and shows everything waiting in the sync centre', async () => {
    const id = await startSession(MIG);
    sessionIds.push(id);
    await fillRemainingSteps(1);
    await finish();

    expect(Number(await page.getByTestId('status-chip').getAttribute('data-unsent'))).toBeGreaterThan(10);
    await page.getByTestId('nav-sync').click();
    // The three sessions, and the tank guide's "done" mark, each its own chain.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="outbox-group"]').length === 4);
    expect(await page.locator('[data-testid="outbox-action"][data-kind="completed"]').textContent()).toContain(
      `Mark as done "${TANK.title}"`,
    );
    for (const sessionId of sessionIds) {
      const group = page.locator(`[data-testid="outbox-group"][data-session-id="${sessionId}"]`);
      expect(await group.getByTestId('outbox-action').first().getAttribute('data-kind')).toBe('start');
      expect(await group.getByTestId('outbox-action').last().getAttribute('data-kind')).toBe('finish');
    }
    await fullViewShot(page, 'sync-centre-outbox.png');
  });

  it('drains the outbox once the site is back, and the site has the sessions as they were done', async () => {
    const site = await demo.restart();
    await sendNowUnlessGone(page);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status-chip"]')?.getAttribute('data-unsent') === '0',
      null,
      { timeout: 60_000 },
    );
    await page.getByTestId('outbox-summary').filter({ hasText: 'Everything you did has reached the site.' }).waitFor();
    // The list of actions is read again after the summary event: give it that moment under load.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="outbox-action"]').length === 0, null, {
      timeout: 30_000,
    });
    expect(await page.getByTestId('conflict').count()).toBe(0);

    const { email, password } = DEMO_ACCOUNTS.tech1;
    const tokenAnswer = await fetch(`${site.apiUrl}/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(tokenAnswer.status).toBe(201);
    const { authToken } = (await tokenAnswer.json()) as { authToken: string };
    token = authToken;
    const seen = new Set<string>();
    for (const sessionId of sessionIds) {
      const session = await sessionOf(sessionId);
      expect(session.entryid).not.toBeNull();
      const answer = await fetch(`${site.apiUrl}/work_log/${session.entryid}`, {
        headers: { Authorization: `api ${authToken}` },
      });
      expect(answer.status).toBe(200);
      const entry = (await answer.json()) as {
        status: string;
        workorderid: string;
        starttime: number;
        endtime: number;
        pause_duration: number;
        work_data: { label?: string; value: string }[];
      };
      expect(entry.status).toBe('complete');
      expect(entry.workorderid).toBe(session.workorderid);
      expect(entry.starttime).toBe(session.startedAt);
      expect(entry.endtime).toBe(session.endedAt);
      expect(entry.pause_duration).toBe(session.pauseSeconds);
      for (const datum of entry.work_data) {
        const want = typed.get(datum.label ?? '');
        expect(want, `a value the test typed for "${datum.label}"`).toBeDefined();
        if (want instanceof RegExp) expect(datum.value).toMatch(want);
        else expect(datum.value).toBe(want);
        seen.add(datum.label!);
      }
    }
    expect([...seen].sort()).toEqual([...typed.keys()].sort());
    expect((await sessionOf(sessionIds[0]!)).pauseSeconds).toBeGreaterThanOrEqual(2);
  });

  it('takes over a session another technician handed over, once the site answers', async () => {
    await page.getByTestId('nav-sessions').click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="session-row"][data-status="complete"]').length === 3,
    );

    await openGuide(BELT);
    const row = page.getByTestId('suspended-row').filter({ hasText: 'WO-24021' });
    await row.waitFor({ timeout: 15_000 });
    await row.getByTestId('take-over').click();
    await row.getByTestId('take-over-confirm').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    expect(await page.getByTestId('session-workorder').textContent()).toBe('WO-24021');
    const id = (await page.getByTestId('session').getAttribute('data-session-id'))!;
    // Online, the outbox sends the take-over by itself. In run mode the session's own sync line leads there.
    await page.getByTestId('session-sync').click();
    await page
      .getByTestId('outbox-summary')
      .filter({ hasText: 'Everything you did has reached the site.' })
      .waitFor({ timeout: 30_000 });
    const session = await sessionOf(id);
    const entry = async () =>
      (await (
        await fetch(`${demo.site().apiUrl}/work_log/${session.entryid}`, { headers: { Authorization: `api ${token}` } })
      ).json()) as unknown;
    await expect.poll(entry, { timeout: 15_000 }).toMatchObject({ status: 'started', userid: session.userid });
    expect((await sessionOf(id)).pendingActions).toBe(0);
  });

  it("a save's late answer does not undo the news that it reached the site", async () => {
    // The web shell carries answers and events on two connections. Online, the outbox sends a save at
    // once, and its "sent" can come before the save's own answer, which still says "waiting". Here the
    // answer is held back half a second, as a busy connection would.
    const FORKLIFT = { id: 10, title: 'Forklift Daily Pre-Shift Inspection', workorder: 'WO-E2E-LATE' };
    await startSession(FORKLIFT);
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await withAnswersHeld(page, 'saveStepData', 500, async () => {
      await page.getByTestId('form-field').filter({ hasText: 'Truck number' }).locator('input').fill('FL-LATE');
      await page.getByTestId('step-save').click();
    });
    // The held answer has been taken: what the header says now is what the window kept.
    await page.waitForTimeout(300);
    expect(await page.getByTestId('session-sync').textContent()).toContain('Saved work is on the site');
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
