import { beforeAll, describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// A guide's document the sync could not keep (the site answered 404 then) showed on the guide page as a
// kept one did, and opened a page of raw words: {"message":"This media file is not on this computer"},
// offline and online alike (found by a walk). It says it is not kept; online it opens from the site.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 }, { synced: false });
let documentsRefused = true;

beforeAll(async () => {
  demo.setSchedule(({ path }) =>
    documentsRefused && path.startsWith('/documents/') ? { kind: 'status', status: 404, message: 'Not found' } : PASS,
  );
  const { api } = opened.app.app.services;
  unwrap(await api.connectDemo());
  unwrap(await api.syncNow());
});

describe('a document the sync could not keep', () => {
  it('says so on the guide page: online it opens from the site, offline it is no link', async () => {
    const { app, page } = opened;
    const guideUrl = new URL('/guides/10', app.shell.url).toString();
    await page.goto(guideUrl);
    const entry = page.getByTestId('guide-documents').locator('li').filter({ hasText: 'Forklift Pre-Shift Checklist' });
    await entry.waitFor();
    expect(await entry.getAttribute('data-kept')).toBe('false');
    expect(await entry.getByTestId('guide-document-missing').textContent()).toMatch(
      /not on this computer: opens from the site/,
    );
    // The site has it again: the link brings the file, not an error page.
    documentsRefused = false;
    const href = (await entry.locator('a[data-testid="guide-document"]').getAttribute('href'))!;
    const answer = await page.evaluate(async (address) => {
      const response = await fetch(address);
      return { status: response.status, type: response.headers.get('content-type') };
    }, href);
    expect(answer).toEqual({ status: 200, type: 'application/pdf' });

    demo.setSchedule(() => ({ kind: 'reset' }));
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status-chip"]')?.getAttribute('data-network') === 'offline',
      null,
      { timeout: 30_000 },
    );
    await expect
      .poll(() => entry.getByTestId('guide-document-missing').textContent())
      .toMatch(/^\s*Not on this computer: it opens when the site can be reached\.\s*$/);
    expect(await entry.locator('a[data-testid="guide-document"]').count()).toBe(0);
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('document-missing-offline-1024x600.png') });
  });
});
