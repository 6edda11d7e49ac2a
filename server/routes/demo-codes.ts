import QRCode from 'qrcode';
import { allCategories, categoryUrl } from '../categories/repo.ts';
import { escapeHtml } from '../guides/markup.ts';
import { guideUrl } from '../guides/json.ts';
import { listGuides } from '../guides/repo.ts';
import type { RouteModule } from '../http/env.ts';
import { siteOrigin } from '../http/urls.ts';

/** A sheet of codes is for the guides a workshop prints: the first ones of a large generated site. */
const MAX_CODES = 200;

async function card(url: string, title: string, what: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  return (
    `<figure>${svg}<figcaption><strong>${escapeHtml(title)}</strong><br>${escapeHtml(what)}` +
    `<br><code>${escapeHtml(url)}</code></figcaption></figure>`
  );
}

const PAGE_STYLE =
  'body{font-family:sans-serif;margin:24px}main{display:grid;grid-template-columns:repeat(auto-fill,220px);' +
  'gap:24px}figure{margin:0;break-inside:avoid}svg{width:200px;height:200px}code{font-size:10px;' +
  'overflow-wrap:anywhere}';

/**
 * The demo's printed codes (issue 30): a page of QR codes of the site's public guides (their pages on
 * the site, `/Guide/<title>/<id>`) and categories (`/Device/<name>`), to print and stick on machines,
 * then scan with the app's Scan button. Plain HTML, no script.
 */
export const demoCodesRoutes: RouteModule = (_api, ctx, site) => {
  site.get('/demo/codes', async (c) => {
    const origin = siteOrigin(c);
    const guides = listGuides(ctx.db, { publicOnly: true }, { offset: 0, limit: MAX_CODES, order: 'ASC' });
    const categories = allCategories(ctx.db).slice(0, MAX_CODES);
    const cards = await Promise.all([
      ...guides.map((g) => card(guideUrl(origin, g), g.title, `Guide ${g.guideid}`)),
      ...categories.map((row) => card(categoryUrl(origin, row.title), row.display_title || row.title, 'Category')),
    ]);
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Codes to print</title>` +
        `<style>${PAGE_STYLE}</style></head><body><h1>Codes of this site's guides</h1>` +
        `<p>Print this page and stick each code on its machine: Fieldguide's Scan button opens the guide.</p>` +
        `<main>${cards.join('')}</main></body></html>`,
    );
  });
};
