import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';

// What the status chip says is told to a screen reader in run mode too. Found by an accessibility walk:
// the only announcer was in the top bar, which run mode does not show, so the site going away, or a change
// it refused, was said to nobody working a step; and each sync was announced twice (the region emptied and
// filled again).
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

describe('the announcer', () => {
  it('tells a technician in run mode that the site went away and came back, each once', async () => {
    const { app, page } = opened;
    const { api } = app.app.services;
    const session = unwrap(await api.startSession({ guideid: 3, workorderid: 'WO-ANNOUNCED' }));
    await page.goto(new URL(`/sessions/${session.id}?step=3`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    expect(await page.getByTestId('status-chip').count(), 'run mode: no top bar').toBe(0);
    const announcer = page.getByTestId('app-announcer');
    // The state the window opens on is not said (it held "Not synced yet" for a moment on a synced app).
    expect(await announcer.textContent()).toBe('');
    await page.evaluate(() => {
      const said: string[] = [];
      (window as unknown as { said: string[] }).said = said;
      const region = document.querySelector('[data-testid="app-announcer"]')!;
      new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });

    demo.setSchedule(() => ({ kind: 'reset' }));
    await expect.poll(() => announcer.textContent(), { timeout: 30_000 }).toMatch(/^Offline\./);
    demo.setSchedule(null);
    await expect.poll(() => announcer.textContent(), { timeout: 30_000 }).not.toMatch(/^Offline\./);
    const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
    expect(
      said.filter((text) => text.trim() === ''),
      'never emptied',
    ).toEqual([]);
    expect(
      said.filter((text, i) => i > 0 && text === said[i - 1]),
      'nothing said twice in a row',
    ).toEqual([]);
    expect(said.filter((text) => text.startsWith('Offline.')).length, JSON.stringify(said)).toBe(1);
  });
});
