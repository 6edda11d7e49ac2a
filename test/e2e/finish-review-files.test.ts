import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, openSyncedDemoApp, type startApp } from './browser.ts';
import { checkScreen, formatProblems, VIEWPORTS } from './screen-checks.ts';

// A photo damaged on this computer's disk before its upload: the Finish review lists it with its step,
// while the session can still take another (a finished session takes no file, and the upload could then
// only be discarded). Before, the review said nothing and the step counted as answered.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1024, height: 600 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Finish review with a photo that cannot be read back', () => {
  it('lists it with its step and field, and its link opens that step', async () => {
    const { api: appApi } = app.app.services;
    // The compressor tank's drain valve photo (a guide whose title the run mode's header holds whole: at
    // 1024x600 a longer one is cut with an ellipsis by design, which the screen checks count as cut).
    const guide = unwrap(await appApi.getGuide(3));
    const step = guide.steps.find((s) => s.form?.fields.some((f) => f.type === 'Image'))!;
    const photo = {
      guide,
      stepid: step.stepid,
      fieldGuid: step.form!.fields.find((f) => f.type === 'Image')!.fieldGuid,
    };
    // Off the network: the photo is kept here, not uploaded.
    demo.setSchedule(() => ({ kind: 'reset' }));
    const session = unwrap(await appApi.startSession({ guideid: photo.guide.guideid, workorderid: 'WO-E2E-REVIEW' }));
    const dataBase64 = encodePng(createCanvas(16, 12, [150, 70, 30])).toString('base64');
    const file = { stepid: photo.stepid, fieldGuid: photo.fieldGuid, name: 'gauge.png', mime: 'image/png' };
    const attached = unwrap(await appApi.attachFile({ sessionId: session.id, ...file, dataBase64 }));
    const attachmentId = attached.values.find((v) => v.fieldGuid === photo.fieldGuid)!.attachment!.id;
    const folder = path.join(app.app.dataDir, 'attachments');
    const kept = path.join(
      folder,
      fs.readdirSync(folder).find((name) => name.startsWith(attachmentId))!,
    );
    const bytes = fs.readFileSync(kept);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x20;
    fs.writeFileSync(kept, bytes);

    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    await page.getByTestId('session-finish').click();
    const listed = page.getByTestId('review-unreadable-file');
    await listed.waitFor();
    const number = guide.steps.indexOf(step) + 1;
    const label = step.form!.fields.find((f) => f.fieldGuid === photo.fieldGuid)!.label;
    expect(await listed.getAttribute('data-step')).toBe(String(number));
    expect(await listed.getByRole('button').textContent()).toContain(`Step ${number}: ${step.title}`);
    expect(await listed.locator('.review-problem').textContent()).toBe(
      `${label}: The file was damaged on this computer's disk after it was saved, so it is not sent. ` +
        'Attach it again before finishing: a finished session takes no file.',
    );
    // At the three sizes, with and without Larger text (the status bar's, hidden in the run mode: set as
    // its toggle keeps it, the review opened again).
    const problems = [];
    for (const large of [false, true]) {
      if (large) {
        await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
        await page.reload();
        await page.getByTestId('session-finish').click();
        await listed.waitFor();
      }
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await listed.scrollIntoViewIfNeeded();
        const screen = `review-unreadable${large ? '-larger' : ''}`;
        await page.screenshot({ path: artifact(`${screen}-${viewport.name}.png`) });
        problems.push(...(await checkScreen(page, screen, viewport)));
      }
    }
    expect(formatProblems(problems)).toBe('');

    await page.getByTestId(`review-unreadable-go-${number}`).click();
    // The step list is in its drawer at this size: the step is the current one there.
    await page.locator(`[data-testid="step-nav-${number}"][aria-current="step"]`).waitFor({ state: 'attached' });
    await page.getByTestId('finish-review').waitFor({ state: 'detached' });
    demo.setSchedule(null);
    expect(pageErrors).toEqual([]);
  });
});
