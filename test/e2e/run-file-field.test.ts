import { describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { fieldsOutOfRoom } from './run-mode-checks.ts';
import { MIN_SESSION_TARGET_PX, setLargerText, VIEWPORTS } from './screen-checks.ts';

// A walk of the run screen: at 1024x600 with Larger text, a photo attached on step 4 of the compressor tank
// stacked the field's three buttons (Replace the photo, Take a photo with the camera, Remove the photo) one
// under another: Remove ended under the step bar, and the field's note line at 538-562 against the bar at 526.
// The same field takes a video (the forklift's horn test) and a document (the MIG tip's log sheet).
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FILES = [
  {
    guide: 'compressor-drain',
    type: 'Image',
    file: { name: 'valve.png', mimeType: 'image/png', buffer: encodePng(createCanvas(64, 48, [40, 110, 90])) },
  },
  { guide: 'forklift-inspection', type: 'Video', file: { name: 'horn.mp4', mimeType: 'video/mp4', buffer: 'mp4' } },
  { guide: 'mig-tip', type: 'Document', file: { name: 'log.pdf', mimeType: 'application/pdf', buffer: '%PDF-1.4' } },
] as const;
const FIELD = (type: string) => `[data-testid="step-form"] [data-testid="form-field"][data-type="${type}"]`;

describe("a file field's buttons once a file is attached", () => {
  for (const { guide, type, file } of FILES) {
    it(`${type}: above the step bar, glove-sized, in reading order, 3 sizes, both text sizes`, async () => {
      const { app, page, pageErrors } = opened;
      const api = app.app.services.api;
      const guideid = DEMO_GUIDES.findIndex((demoGuide) => demoGuide.key === guide) + 1;
      const steps = unwrap(await api.getGuide(guideid)).steps;
      const step = steps.findIndex((s) => s.form?.fields.some((f) => f.type === type)) + 1;
      const session = unwrap(await api.startSession({ guideid, workorderid: `WO-FILE-${type.toUpperCase()}` }));
      await page.goto(new URL(`/sessions/${session.id}?step=${step}`, app.shell.url).toString());
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
      const field = page.locator(FIELD(type));
      await field.locator('input[type="file"]').setInputFiles({ ...file, buffer: Buffer.from(file.buffer) });
      await field.getByTestId('attachment-remove').waitFor();
      const problems: string[] = [];
      for (const large of [true, false]) {
        await setLargerText(page, large);
        for (const size of VIEWPORTS) {
          const name = `${type} ${size.name}${large ? '-larger' : ''}`;
          await page.setViewportSize(size);
          await page.reload();
          await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
          await field.getByTestId('attachment-remove').waitFor();
          if (type === 'Image') await field.getByTestId('attachment-thumb').waitFor();
          await page.waitForTimeout(150);
          // Each field's label, controls and note line between the header and the step bar.
          problems.push(...(await fieldsOutOfRoom(page, name)));
          const controls = field.locator('label.file-button, button');
          // Each control glove-sized, and the keyboard goes through them as they read: row by row, left to right.
          const boxes = await controls.evaluateAll((els) =>
            els
              .filter((el) => el.getBoundingClientRect().width > 0)
              .map((el) => {
                const box = el.getBoundingClientRect();
                const words = (el.textContent ?? '').trim();
                return { words, top: Math.round(box.top), left: Math.round(box.left), w: box.width, h: box.height };
              }),
          );
          for (const box of boxes)
            if (box.w < MIN_SESSION_TARGET_PX || box.h < MIN_SESSION_TARGET_PX)
              problems.push(`${name}: "${box.words}" ${box.w}×${box.h}`);
          const read = [...boxes].sort((a, b) => a.top - b.top || a.left - b.left).map((box) => box.words);
          if (read.join() !== boxes.map((box) => box.words).join())
            problems.push(`${name}: the keyboard's order ${boxes.map((b) => b.words)} against the reading ${read}`);
          await page.screenshot({ path: artifact(`run-file-field-${type}-${size.name}${large ? '-larger' : ''}.png`) });
        }
      }
      await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
      expect(problems).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  }
});
