import { canViewGuide } from '../guides/access.ts';
import { allCategories, categoryUrl, type CategoryRow } from '../categories/repo.ts';
import { guideSummaryJson } from '../guides/json.ts';
import { getGuideRows } from '../guides/repo.ts';
import { imageJson } from '../media/json.ts';
import { search, SEARCH_FILTERS, type SearchFilter } from '../search/repo.ts';
import { currentUser, isAdmin } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { invalid } from '../http/errors.ts';
import { pagedResult, parsePaging, slicePage } from '../http/paging.ts';
import { siteOrigin } from '../http/urls.ts';

function parseFilters(value: string | undefined): Set<SearchFilter> {
  const filters = new Set<SearchFilter>();
  for (const part of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    if (!(SEARCH_FILTERS as readonly string[]).includes(part)) {
      throw invalid('filter', 'invalid_value', `filter values are ${SEARCH_FILTERS.join(', ')}`);
    }
    filters.add(part as SearchFilter);
  }
  return filters;
}

/** A wiki-type result of reference 4.9 for a category page. */
function wikiResult(origin: string, row: CategoryRow) {
  return {
    dataType: 'wiki' as const,
    wikiid: row.wikiid,
    namespace: 'CATEGORY' as const,
    title: row.title,
    display_title: row.display_title,
    summary: row.description,
    text: row.contents_raw,
    image:
      row.imageid !== null && row.image_guid !== null
        ? imageJson(origin, { imageid: row.imageid, guid: row.image_guid })
        : null,
    url: categoryUrl(origin, row.title),
  };
}

/** Reference 4.9. Guides the caller may see and category pages; `search` echoes the query. */
export const searchRoutes: RouteModule = (api, ctx) => {
  api.get('/search/:query', (c) => {
    const paging = parsePaging((name) => c.req.query(name));
    const filters = parseFilters(c.req.query('filter'));
    const text = c.req.param('query');
    const user = currentUser(c);
    const hits = search(ctx.db, text, filters, { all: isAdmin(user), userid: user?.userid ?? null });
    const page = slicePage(hits, paging);
    const origin = siteOrigin(c);
    const guides = new Map(
      getGuideRows(
        ctx.db,
        page.flatMap((hit) => (hit.kind === 'guide' ? [hit.id] : [])),
      ).map((row) => [row.guideid, row]),
    );
    const categories = new Map(allCategories(ctx.db, true).map((row) => [row.wikiid, row]));
    const results = page.flatMap((hit): object[] => {
      if (hit.kind === 'guide') {
        const row = guides.get(hit.id);
        return row && canViewGuide(user, row) ? [{ ...guideSummaryJson(origin, row), isArchived: false }] : [];
      }
      const row = categories.get(hit.id);
      return row ? [wikiResult(origin, row)] : [];
    });
    return c.json(pagedResult(results, hits.length, paging, text));
  });
};
