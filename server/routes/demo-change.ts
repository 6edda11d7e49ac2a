import { DEMO_ACCOUNTS } from '../demo-accounts.ts';
import { publishDemoChange } from '../demo/change-guide.ts';
import { escapeHtml } from '../guides/markup.ts';
import { getGuideRow, listGuides } from '../guides/repo.ts';
import type { RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { getUserByEmail } from '../users/repo.ts';

/** The step of a guide the demo's change rewords. */
const STEP = 3;
const MAX_GUIDES = 100;

const PAGE_STYLE =
  'body{font-family:sans-serif;margin:24px;max-width:48rem}li{margin:6px 0}form{display:inline}' +
  'button{margin-left:8px}.done{background:#e6f4ea;padding:8px 12px;border-radius:6px}';

/**
 * The demo's changed guide (issue 30), served only by the demo workshop's site: a page listing its public
 * guides, each with a button that publishes a new revision of it as its author would (step 3 reworded, a
 * step added, a release note; demo/change-guide.ts). Open the guide in Fieldguide, press the button,
 * sync: the guide shows what changed. Plain HTML forms, no script.
 */
export const demoChangeRoutes: RouteModule = (_api, ctx, site) => {
  const demoOnly = () => {
    if (!ctx.options.demo) throw notFound();
  };

  site.get('/demo/change', (c) => {
    demoOnly();
    const guides = listGuides(ctx.db, { publicOnly: true }, { offset: 0, limit: MAX_GUIDES, order: 'ASC' });
    const changed = Number(c.req.query('changed'));
    const done = guides.find((g) => g.guideid === changed);
    const items = guides.map(
      (g) =>
        `<li>${escapeHtml(g.title)}<form method="post" action="/demo/change/${g.guideid}">` +
        `<button type="submit" data-guideid="${g.guideid}">Publish a change</button></form></li>`,
    );
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Change a guide</title>` +
        `<style>${PAGE_STYLE}</style></head><body><h1>Change a demo guide</h1>` +
        (done ? `<p class="done" role="status">Published a new revision of ${escapeHtml(done.title)}.</p>` : '') +
        `<p>Read a guide in Fieldguide first. Then press its button: the site publishes a new revision ` +
        `(step ${STEP} reworded, a step added at the end, with a release note). Sync in Fieldguide and open ` +
        `the guide again: it says what changed.</p><ul>${items.join('')}</ul></body></html>`,
    );
  });

  site.post('/demo/change/:guideid', (c) => {
    demoOnly();
    const guideid = Number(c.req.param('guideid'));
    const row = Number.isSafeInteger(guideid) ? getGuideRow(ctx.db, guideid) : undefined;
    if (!row || row.public !== 1) throw notFound('No such guide');
    const author = getUserByEmail(ctx.db, DEMO_ACCOUNTS.author.email);
    ctx.db.transaction(() => publishDemoChange(ctx.db, guideid, STEP, ctx.clock.now(), author?.userid ?? row.userid))();
    return c.redirect(`/demo/change?changed=${guideid}`, 303);
  });
};
