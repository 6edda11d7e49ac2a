import { describe, expect, it } from 'vitest';
import { always } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { placedProblems, reviseForkForm, STEP_PARTS } from './run-mode-checks.ts';
import { setLargerText, VIEWPORTS } from './screen-checks.ts';

// A walk: a sync brought a revision of the guide of the session open on screen, and the screen said nothing;
// "The site revised this guide" came only with the session's next change (a save, a pause), or a reload.
// Behind the fault proxy: the site can be away from this computer while the author revises a guide on it.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = 10;
const SITE_KEEPS_REVISED =
  'The site keeps this session on the guide as revised (its start reached the site after the change): whoever ' +
  'reads it there sees the revised steps, and fields this session did not ask for unanswered.';

describe('a session open on screen when a sync brings its guide revised', () => {
  it('says the site revised the guide as the sync stores it, with nothing done in the session', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-REVISED-OPEN' }));
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    expect(await page.getByTestId('guide-revised').count()).toBe(0);
    // The author revises step 4's form on the site; this computer's sync stores the revision.
    await reviseForkForm(demo.site(), FORKLIFT);
    unwrap(await api.syncNow());
    // No save, no pause, no reload: the notice comes, and names what the revised form asks for.
    const revised = page.getByTestId('guide-revised');
    await revised.waitFor({ timeout: 10_000 });
    await revised.getByText('Both fork locking pins engaged', { exact: false }).waitFor({ state: 'attached' });
    // Started online before the change: the site keeps it on the revision it follows, and nothing says otherwise.
    expect(await revised.getByTestId('guide-revised-site').count()).toBe(0);
    await page.screenshot({ path: artifact('revised-while-open.png') });
    expect(pageErrors).toEqual([]);
  });

  it('says the site keeps a session on the revised guide when its start, sent offline, reached it after', async () => {
    // A start carries no revision: the site records it on the guide as it is when the start arrives.
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    demo.setSchedule(always({ kind: 'reset' }));
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-REVISED-OFFLINE' }));
    // The author revises step 4's form again: the fork pins' box removed, a box on the fork tips added.
    await reviseForkForm(demo.site(), FORKLIFT, {
      from: 'Both fork locking pins engaged',
      to: 'Fork tips free of cracks',
    });
    demo.setSchedule(null);
    const sent = unwrap(await api.flushOutbox());
    expect(sent.pending + sent.inFlight + sent.failed).toBe(0);
    unwrap(await api.syncNow());
    const url = new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString();
    await page.goto(url);
    const revised = page.getByTestId('guide-revised');
    await revised.getByText('Fork tips free of cracks', { exact: false }).waitFor({ state: 'attached' });
    expect(await revised.getByTestId('guide-revised-site').textContent()).toBe(SITE_KEEPS_REVISED);
    // The notice on one line, More shut, and opened: the step's top and the notice's words whole in view at the
    // small sizes with Larger text.
    await setLargerText(page, true);
    const problems: string[] = [];
    for (const size of VIEWPORTS.slice(1)) {
      await page.setViewportSize(size);
      await page.reload();
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
      await revised.getByTestId('guide-revised-site').waitFor({ state: 'attached' });
      problems.push(...(await placedProblems(page, STEP_PARTS, `${size.name}, More shut`)));
      await revised.getByTestId('notice-more').click();
      const rest = { "the notice's words": '[data-testid="guide-revised"] [data-testid="notice-rest"]' };
      problems.push(...(await placedProblems(page, { ...STEP_PARTS, ...rest }, `${size.name}, More open`)));
      await page.screenshot({ path: artifact(`revised-site-keeps-${size.name}-larger.png`) });
    }
    await setLargerText(page, false);
    expect(problems).toEqual([]);
    // Ended: the summary and the report say it.
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'finish' }));
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(url);
    expect(await page.getByTestId('summary-site-revision').textContent()).toBe(SITE_KEEPS_REVISED);
    await page.screenshot({ path: artifact('revised-site-keeps-summary.png') });
    await page.goto(new URL(`/sessions/${session.id}/report`, app.shell.url).toString());
    expect(await page.getByTestId('report-site-revision').textContent()).toBe(SITE_KEEPS_REVISED);
    expect(pageErrors).toEqual([]);
  });
});
