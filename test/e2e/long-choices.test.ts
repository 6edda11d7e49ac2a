import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';
import { expectFitsBothTextSizes } from './screen-checks.ts';

// A walk through long guides: one long choice of a dropdown ("Pass with remarks: slight scoring on the
// rotor lobe tip within the manufacturer limit, recheck at next service") made the whole step form as wide as
// it, under the instructions at 1366x768 and 1024x600 and off the screen's edge at 800x1280: the labels were
// cut mid-word, and the reason a value failed ("FAIL 0.2 is outsid…"). The form keeps to its column.
const LONG_CHOICE =
  'Worn beyond the limit at the heel: take the truck out of service and book a fork inspection by the ' +
  'dealer before it lifts any load again';
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 }, { synced: false });
const FORKLIFT = 10;

describe('a step form with a long choice', () => {
  it('keeps to its column at every size, with Larger text too', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    unwrap(await api.connectDemo());
    // The site's form has the long choice before the first sync reads it.
    demo
      .site()
      .db.prepare(`UPDATE form_fields SET options = json_array('Good', ?, 'Cracked or bent') WHERE label = ?`)
      .run(LONG_CHOICE, 'Fork condition');
    unwrap(await api.syncNow());
    const guide = unwrap(await api.getGuide(FORKLIFT));
    const at = guide.steps.findIndex((step) => step.form?.fields.some((field) => field.label === 'Fork condition'));
    expect(guide.steps[at]!.form!.fields[0]!.options).toContain(LONG_CHOICE);
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-LONG-CHOICE' }));
    await page.goto(new URL(`/sessions/${session.id}?step=${at + 1}`, app.shell.url).toString());
    const form = () => page.locator('[data-testid="step-form"][data-ready="true"]');
    const ready = async () => void (await form().waitFor());
    await ready();
    await page.getByTestId('step-form').locator('select').selectOption({ label: LONG_CHOICE });
    // Chosen and not saved: the step list marks it so at once (it showed nothing until a save).
    const mark = page.getByTestId(`step-nav-${at + 1}`).locator('.step-nav-mark');
    await expect.poll(() => mark.textContent()).toBe('●');
    await expectFitsBothTextSizes(page, 'long-choice', form, ready, { width: 1366, height: 768 });
    // The form within its own column, the choice within the form, at each size.
    for (const size of [
      { width: 1366, height: 768 },
      { width: 1024, height: 600 },
      { width: 800, height: 1280 },
    ]) {
      await page.setViewportSize(size);
      const [box, select, column] = await page.evaluate(() => {
        const of = (el: Element | null) => el!.getBoundingClientRect();
        const form = document.querySelector('[data-testid="step-form"]');
        return [of(form), of(form!.querySelector('select')), of(form!.parentElement)].map((r) => [r.left, r.right]);
      });
      expect(box![1]!, `the form at ${size.width}`).toBeLessThanOrEqual(column![1]! + 0.5);
      expect(select![1]!, `the choice at ${size.width}`).toBeLessThanOrEqual(box![1]!);
    }
    expect(pageErrors).toEqual([]);
  });
});
