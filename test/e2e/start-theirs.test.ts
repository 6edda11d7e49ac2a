import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile, gloveDoubleTap } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// A shared laptop at a change of shift (a walk of a shared laptop): tech1 left work order WO-SHIFT-7 paused,
// tech2 typed the same work order on the same guide and pressed Start: a second entry of the job went to
// the site with no word, and neither technician knew of the other's work. The start form now asks first,
// names who has it open and how their work is carried on instead (hand over, take over), and starts a
// session of tech2's own only when asked to.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });
const FORKLIFT = 10;
const password = (who: 'tech1' | 'tech2') => ({
  email: DEMO_ACCOUNTS[who].email,
  password: DEMO_ACCOUNTS[who].password,
});

describe("the same work order open under another technician's name on this laptop", () => {
  it('is said before a second entry is made; Escape goes back; a session of my own when asked', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const first = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-7' }));
    unwrap(await api.transitionSession({ sessionId: first.id, transition: 'pause' }));
    unwrap(await api.switchTechnician(password('tech2')));
    await page.goto(new URL(`/guides/${FORKLIFT}`, app.shell.url).toString());
    await page.getByTestId('workorder-input').fill('wo-shift-7');
    await page.getByTestId('start-session-button').click();
    const question = page.getByTestId('start-theirs');
    await question.waitFor();
    expect((await question.locator('p').textContent())!.replace(/\s+/g, ' ').trim()).toMatch(
      new RegExp(
        `^${DEMO_ACCOUNTS.tech1.username} has work order WO-SHIFT-7 open on this guide on this computer ` +
          '\\(paused, started .+\\)\\. To carry on their work, they hand it over \\(Hand over, in their session\\), ' +
          'then you take it over in Sessions\\. A session of your own makes a second entry of this job on the site\\.$',
      ),
    );
    // The keyboard on the answer that makes nothing; Escape back to the work order, to be changed.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('start-theirs-not-now');
    await page.screenshot({ path: artifact('start-theirs-1024x600.png') });
    await expectLargerTextFits(page, 'start-theirs', question, { width: 1024, height: 600 });
    await page.getByTestId('start-theirs-not-now').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => question.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('workorder');
    expect(unwrap(await api.listSessions({})).length).toBe(0);

    // Asked again, a glove's double tap on "Start a session of my own" makes one session, tech2's.
    await page.getByTestId('start-session-button').click();
    await gloveDoubleTap(page, page.getByTestId('start-theirs-own'));
    await page.waitForURL(/\/sessions\/[0-9a-f-]+/);
    await page.waitForTimeout(500);
    const mine = unwrap(await api.listSessions({}));
    expect(mine.map((s) => s.workorderid)).toEqual(['wo-shift-7']);
    expect(pageErrors).toEqual([]);
  });

  it('names both colleagues who have it open, and asks after "Start another session" of my own too', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const admin = { email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password };
    unwrap(await api.switchTechnician(admin));
    unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-7' }));
    unwrap(await api.switchTechnician(password('tech2')));
    await page.goto(new URL(`/guides/${FORKLIFT}`, app.shell.url).toString());
    // tech2 has one of their own (the first test's): asked about it first, then about the colleagues.
    await page.getByTestId('workorder-input').fill('WO-SHIFT-7');
    await page.getByTestId('start-session-button').click();
    await page.getByTestId('start-already').waitFor();
    await page.getByTestId('start-already-another').click();
    const question = page.getByTestId('start-theirs');
    await question.waitFor();
    expect((await question.locator('p').textContent())!.replace(/\s+/g, ' ')).toMatch(
      new RegExp(
        `^ ?${DEMO_ACCOUNTS.admin.username} and ${DEMO_ACCOUNTS.tech1.username} have work order WO-SHIFT-7 ` +
          'open on this guide on this computer \\(the newest in progress, started ',
      ),
    );
    await page.getByTestId('start-theirs-not-now').click();
    expect(pageErrors).toEqual([]);
  });
});
