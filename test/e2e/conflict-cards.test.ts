import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng, fillRect } from '../../server/media/png.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { officeSaves } from '../helpers/office-save.ts';
import { api, signIn } from '../server/helpers.ts';
import { artifact, connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';
import { expectFitsBothTextSizes } from './screen-checks.ts';
import { runHeader } from './run-mode-checks.ts';

// Conflict cards a technician can act on, over real HTTP in Chromium. On the drain guide an office user
// changes the tank notes on the site while the technician writes their own; the author revises the form of
// the drain valve's step, dropping its photo field, after the session began on the form that had it. Before:
// the notes' card named no step and the step's field said nothing of the conflict; the photo's card was
// "Field removed from the form", the technician's photo "(empty)", the site's value "(empty)", and the photo
// was on no screen and could not be saved.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const DRAIN = { id: 3, title: 'Drain and Inspect the Air Compressor Tank' };
const NOTES = 'Notes on the tank and drain';
const PHOTO = 'Photo of the drain valve after closing';
const SIZE = { width: 1366, height: 768 };
let sessionUrl = '';

const canvas = createCanvas(64, 48, [40, 110, 90]);
fillRect(canvas, 16, 12, 32, 24, [240, 200, 60]);
const PNG = encodePng(canvas);

type SiteField = { field_revisionid: number; field_guid: string; field_type: string; label: string };
type SiteForm = { stepid: number; guideid: number; fields: SiteField[] };

async function siteForms(token: string): Promise<SiteForm[]> {
  const answer = await api(demo.site(), 'GET', `/step_forms/guideid/${DRAIN.id}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as SiteForm[];
}

const field = (label: string) => page.getByTestId('form-field').filter({ hasText: label });
async function onStep(n: number): Promise<void> {
  await page.locator(`[data-testid="step-nav-${n}"][aria-current="step"]`).waitFor();
  await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
}

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, SIZE, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('conflict cards a technician can act on', () => {
  it('name the step, mark the field, and keep a photo whose field the site dropped', async () => {
    await connectAndSyncDemo(page, app.shell.url);
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').filter({ hasText: DRAIN.title }).first().click();
    await page.locator(`[data-testid="guide"][data-guideid="${DRAIN.id}"]`).waitFor();
    await page.getByTestId('workorder-input').fill('WO-CARDS-1');
    await page.getByTestId('start-session-button').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    sessionUrl = page.url();
    const sessionId = (await page.getByTestId('session').getAttribute('data-session-id'))!;
    await expect
      .poll(async () => {
        const session = await app.app.services.api.getSession(sessionId);
        return session.ok ? session.value.entryid : null;
      })
      .not.toBeNull();
    const session = await app.app.services.api.getSession(sessionId);
    const entryid = session.ok ? session.value.entryid! : 0;

    // On the site: the author drops the drain valve's photo field (and, after the sync, the office writes the notes).
    const office = await signIn(demo.site(), 'tech1');
    const forms = await siteForms(office.token);
    const notes = forms.flatMap((f) => f.fields).find((f) => f.label === NOTES)!;
    const notesStep = forms.find((f) => f.fields.includes(notes))!.stepid;
    const target = { fieldGuid: notes.field_guid, stepid: notesStep };
    const photoForm = forms.find((f) => f.fields.some((x) => x.label === PHOTO))!;
    const author = await signIn(demo.site(), 'author');
    const revised = await api(demo.site(), 'POST', `/step_forms/${photoForm.stepid}`, {
      token: author.token,
      json: { fields: [{ field_type: 'Checkbox', label: 'Drain valve closes without a leak' }] },
    });
    expect(revised.status).toBe(201);
    // The library learns the revised form; the session keeps the form it began on.
    await page.getByTestId('session-leave').click();
    await page.getByTestId('nav-sync').click();
    const synced = page.waitForResponse((r) => r.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.getByTestId('sync-now').click();
    await synced;
    // The office writes the tank notes after that sync: a sync's look would have shown their value in the field
    // before the technician typed (worklog/running-look.ts), and the technician's save meets it only on the site.
    await officeSaves(demo.site(), { entryid, guideid: DRAIN.id }, target, 'Office: the drain thread weeps');
    await page.goto(`${sessionUrl}?step=3`);
    await onStep(3);
    // The session's notice names what the site's forms ask for now, and no longer (it named no field).
    const notice = page.getByTestId('guide-revised');
    await expect
      .poll(async () => (await notice.innerText()).replace(/\s+/g, ' '))
      .toContain(
        'Its form on the site now also asks for Drain valve closes without a leak (step 4), which this session ' +
          `does not. It no longer asks for ${PHOTO} (step 4): what you enter there stays on this computer.`,
      );
    await field(NOTES).locator('textarea').fill('Mine: clean, no weeping');
    await page.getByTestId('step-nav-4').click();
    await onStep(4);
    await field(PHOTO)
      .locator('input[type="file"]')
      .setInputFiles({ name: 'drain-valve.png', mimeType: 'image/png', buffer: PNG });
    await field(PHOTO).getByTestId('attachment').waitFor();

    // The step's field says the site has a value of its own, and links to the card.
    await page.getByTestId('step-nav-3').click();
    await onStep(3);
    const said = field(NOTES).getByTestId('field-conflict');
    await said.waitFor({ timeout: 30_000 });
    expect(await said.textContent()).toBe('Changed on the site too: it has "Office: the drain thread weeps" there.');
    await page.getByTestId('step-nav-4').click();
    await onStep(4);
    await field(PHOTO).getByTestId('field-conflict').waitFor({ timeout: 30_000 });
    expect(await field(PHOTO).getByTestId('field-conflict').textContent()).toContain('no longer has this field');
    await page.getByTestId('step-nav-3').click();
    await onStep(3);
    await expectFitsBothTextSizes(
      page,
      'conflict-on-step',
      () => field(NOTES),
      () => onStep(3),
      SIZE,
    );
    // At 1024x600 with Larger text the run header says them on the controls' one row: "2 conflicts · nothing
    // else to send" took a row of its own, and the step had 360 px left.
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.reload();
    // The step list is a drawer at this size: the step's count says where it is.
    await page.locator('[data-testid="step-count"]').filter({ hasText: 'Step 3 of' }).waitFor();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const header = await runHeader(page);
    await page.screenshot({ path: artifact('conflict-cards-run-header-1024x600-larger.png') });
    expect(header).toEqual({ rows: 1, sync: '2 conflicts to settle' });
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.setViewportSize(SIZE);
    await page.reload();
    await onStep(3);
    // The Finish review says what finishing does to them, and leads to them.
    await page.getByTestId('session-finish').click();
    expect(await page.getByTestId('review-pending').innerText()).toContain(
      'once the session is finished, your value can no longer be sent, only copied.',
    );
    expect(await page.getByTestId('review-conflicts-link').innerText()).toBe('Settle the conflict first');
    await page.keyboard.press('Escape');

    // The field's link goes to its own card, its heading focused (before: the list's heading, the card below).
    await field(NOTES).getByTestId('field-conflict-link').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(NOTES);
    const cards = page.getByTestId('conflict');
    await expect.poll(() => cards.count()).toBe(2);
    // Not "Everything you did has reached the site" beside them.
    expect(await page.getByTestId('outbox-summary').innerText()).toBe(
      'Nothing waits to be sent; 2 conflicts below need you: what they hold is not on the site.',
    );
    const notesCard = cards.filter({ hasText: NOTES });
    expect(await notesCard.getByTestId('conflict-step').textContent()).toContain('Step 3: Inspect the condensate');
    expect(await notesCard.getByTestId('conflict-theirs').textContent()).toContain('Office: the drain thread weeps');
    // Back to the step from its card.
    await notesCard.getByTestId('conflict-step').click();
    await onStep(3);
    await page.goBack();
    await cards.first().waitFor();

    const photoCard = cards.filter({ hasText: PHOTO });
    expect(await photoCard.locator('h3').textContent()).toBe(PHOTO);
    expect(await photoCard.getByTestId('conflict-step').textContent()).toContain(
      'Step 4: Test and close the drain valve',
    );
    const thumb = photoCard.getByTestId('conflict-file-thumb');
    await thumb.waitFor();
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    expect(await photoCard.getByTestId('conflict-theirs').textContent()).toContain(
      'The site no longer has this field.',
    );
    expect(await photoCard.getByTestId('conflict-base').count()).toBe(0);
    expect(await photoCard.getByTestId('copy-mine').count()).toBe(0);
    expect(await photoCard.getByTestId('keep-mine').count()).toBe(0);
    // Saved as a copy: the very bytes the technician attached, under the file's own name.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      photoCard.getByTestId('conflict-file-save').click(),
    ]);
    expect(download.suggestedFilename()).toBe('drain-valve.png');
    expect(fs.readFileSync(await download.path()).equals(PNG)).toBe(true);

    const photoCardNow = () => page.getByTestId('conflict').filter({ hasText: PHOTO });
    await expectFitsBothTextSizes(
      page,
      'conflict-file-card',
      photoCardNow,
      () => photoCardNow().getByTestId('conflict-file-thumb').waitFor(),
      SIZE,
    );
    // Understood: the card goes; the photo stays in the session.
    await page.getByTestId('conflict').filter({ hasText: PHOTO }).getByTestId('keep-theirs').click();
    await expect.poll(() => page.getByTestId('conflict').count()).toBe(1);
    // Said (before: the card just went).
    expect(await page.getByTestId('conflicts-said').innerText()).toBe('Read and closed.');
    await page.goto(`${sessionUrl}?step=4`);
    await onStep(4);
    await field(PHOTO).getByTestId('attachment-thumb').waitFor();
    expect(await field(PHOTO).getByTestId('field-conflict').count()).toBe(0);
    // Never sent, and said so (before: "Uploaded, but the site did not take the step's save: see the sync centre").
    expect(await field(PHOTO).getByTestId('attachment-state').innerText()).toBe('Kept on this computer only');
    expect(pageErrors).toEqual([]);
  });

  it("says in the guide's change banner what the step's record asks for now, and no longer", async () => {
    await page.getByTestId('session-leave').click();
    const banner = page.getByTestId('guide-changes');
    await banner.waitFor();
    const change = banner.getByTestId('guide-change').filter({ hasText: 'Test and close the drain valve' });
    // Before: a form change was no change ("Its steps read the same"), the dropped photo field unsaid.
    const said = await change.getByTestId('guide-change-field').allInnerTexts();
    expect(said.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Added: To record: Drain valve closes without a leak',
      `Removed: To record: ${PHOTO}`,
    ]);
    expect(await change.innerText()).toContain('Changed step 4');
  });
});
