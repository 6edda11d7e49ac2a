import type { Context } from 'hono';
import {
  allCategories,
  categoryDetailJson,
  getCategory,
  hierarchy,
  lightCategoryJson,
  type CategoryRow,
} from '../categories/repo.ts';
import { addTag, categoryTags, removeTag } from '../tags/repo.ts';
import type { ServerContext } from '../context.ts';
import { canEditContent, currentUser, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { parseBoolean } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { z } from 'zod';

const NAMESPACES = ['CATEGORY', 'ITEM', 'TEAM', 'USER', 'INFO', 'WIKI'] as const;
const tagBody = z.object({ tag: z.string().trim().min(1).max(100) });

/** By title as stored, or with underscores for spaces as site URLs write it. */
function categoryByName(ctx: ServerContext, name: string): CategoryRow {
  const row = getCategory(ctx.db, name) ?? getCategory(ctx.db, name.replace(/_/g, ' '));
  if (!row) throw notFound('No such category');
  return row;
}

function detail(ctx: ServerContext, c: Context<AppEnv>, row: CategoryRow) {
  const user = currentUser(c);
  return categoryDetailJson(ctx.db, siteOrigin(c), row, user, canEditContent(user));
}

function namespaceOf(value: string): (typeof NAMESPACES)[number] {
  const upper = value.toUpperCase();
  if (!(NAMESPACES as readonly string[]).includes(upper)) throw notFound('No such wiki namespace');
  return upper as (typeof NAMESPACES)[number];
}

/** The content hierarchy of 4.10 and the CATEGORY namespace of the wiki endpoints (the only one with pages here). */
export const categoriesRoutes: RouteModule = (api, ctx) => {
  api.get('/categories', (c) => c.json(hierarchy(allCategories(ctx.db))));
  api.get('/categories/all', (c) => c.json(allCategories(ctx.db).map((row) => row.title)));
  api.get('/categories/:name', (c) => c.json(detail(ctx, c, categoryByName(ctx, c.req.param('name')))));

  api.get('/wikis/:namespace', (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const display = c.req.query('display');
    if (display !== undefined && display !== 'hierarchy' && display !== 'titles') {
      throw invalid('display', 'invalid_value', 'display must be hierarchy or titles');
    }
    const includeStubs = parseBoolean(c.req.query('includeStubs'), 'includeStubs') ?? false;
    const rows = namespace === 'CATEGORY' ? allCategories(ctx.db, includeStubs) : [];
    if (display === 'hierarchy') {
      if (namespace !== 'CATEGORY') throw invalid('display', 'invalid_value', 'display=hierarchy is for CATEGORY only');
      return c.json({
        hierarchy: hierarchy(rows),
        display_titles: Object.fromEntries(rows.map((row) => [row.title, row.display_title])),
      });
    }
    if (display === 'titles') return c.json(rows.map((row) => row.title));
    const origin = siteOrigin(c);
    return c.json(rows.map((row) => lightCategoryJson(origin, row)));
  });

  const categoryPage = (c: Context<AppEnv>) => {
    if (namespaceOf(c.req.param('namespace') ?? '') !== 'CATEGORY') throw notFound('No such wiki');
    return categoryByName(ctx, c.req.param('title') ?? '');
  };

  api.get('/wikis/:namespace/:title', (c) => c.json(detail(ctx, c, categoryPage(c))));
  api.get('/wikis/:namespace/:title/children', (c) => {
    const row = categoryPage(c);
    const origin = siteOrigin(c);
    return c.json(
      allCategories(ctx.db, true)
        .filter((child) => child.parentid === row.wikiid)
        .map((child) => lightCategoryJson(origin, child)),
    );
  });

  api.get('/wikis/:namespace/:title/tags', (c) => c.json(categoryTags(ctx.db, categoryPage(c).wikiid)));
  for (const method of ['put', 'delete'] as const) {
    api[method]('/wikis/:namespace/:title/tag', async (c) => {
      const user = requireUser(c);
      const row = categoryPage(c);
      if (!canEditContent(user)) throw forbidden('You cannot edit this wiki');
      const { tag } = await readBody(c, tagBody);
      ctx.db.transaction(() => {
        const changed =
          method === 'put'
            ? addTag(ctx.db, { wikiid: row.wikiid }, tag)
            : removeTag(ctx.db, { wikiid: row.wikiid }, tag);
        if (changed) recordMutation(ctx, c, 'wiki_tag', row.wikiid);
      })();
      return c.json(categoryTags(ctx.db, row.wikiid));
    });
  }
};
