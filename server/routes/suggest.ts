import { canViewGuide } from '../guides/access.ts';
import { guideUrl } from '../guides/json.ts';
import { getGuideRows } from '../guides/repo.ts';
import { currentUser, isAdmin } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { HttpError } from '../http/errors.ts';
import { siteOrigin } from '../http/urls.ts';
import { imageJson } from '../media/json.ts';
import { search, type SearchFilter } from '../search/repo.ts';

/** How many suggestions iFixit answers at most. */
const SUGGESTIONS = 10;

/** `doctypes` of iFixit's suggest: `all` is topics and guides; device and category are topics. */
const DOCTYPES: Record<string, SearchFilter[]> = {
  all: ['guide', 'teardown', 'category'],
  guide: ['guide', 'teardown'],
  topic: ['category'],
  device: ['category'],
  category: ['category'],
  item: ['item'],
  question: ['question'],
  post: ['question'],
};

/**
 * iFixit's `GET /suggest/{query}` (the `ifixit` dialect's search: http/dialect.ts): up to ten results of
 * the requested document types, guides as `{dataType, guideid, title, display_title, summary, url, ...}`.
 */
export const suggestRoutes: RouteModule = (api, ctx) => {
  api.get('/suggest/:query', (c) => {
    const asked = (c.req.query('doctypes') ?? 'all').split(',').map((type) => type.trim());
    const filters = new Set(asked.flatMap((type) => DOCTYPES[type] ?? []));
    if (filters.size === 0) throw new HttpError(400, 'No valid doctypes given');
    const text = c.req.param('query');
    const user = currentUser(c);
    const hits = search(ctx.db, text, filters, { all: isAdmin(user), userid: user?.userid ?? null });
    const ids = hits.flatMap((hit) => (hit.kind === 'guide' ? [hit.id] : [])).slice(0, SUGGESTIONS);
    const origin = siteOrigin(c);
    const results = getGuideRows(ctx.db, ids)
      .filter((row) => canViewGuide(user, row))
      .map((row) => ({
        dataType: 'guide',
        guideid: row.guideid,
        langid: row.locale,
        title: row.title,
        display_title: row.title,
        summary: row.summary,
        url: guideUrl(origin, row),
        modified_date: Math.floor(row.modified_date),
        author: row.userid,
        ...(row.imageid !== null && row.image_guid !== null
          ? { image: imageJson(origin, { imageid: row.imageid, guid: row.image_guid }) }
          : {}),
      }));
    return c.json({ query: text, results });
  });
};
