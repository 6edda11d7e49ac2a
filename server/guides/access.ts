import type { Context } from 'hono';
import type { Db } from '../db/types.ts';
import { canEditContent, currentUser, isAdmin } from '../http/auth.ts';
import type { AppEnv } from '../http/env.ts';
import { forbidden, notFound, unauthorized } from '../http/errors.ts';
import { routeId } from '../http/query.ts';
import type { UserRow } from '../users/repo.ts';
import { getGuideRow, type GuideRow } from './repo.ts';

/** Public guides for everyone; a private one for admins and its own author only. */
export function canViewGuide(user: UserRow | null, guide: Pick<GuideRow, 'public' | 'userid'>): boolean {
  return guide.public === 1 || isAdmin(user) || (user !== null && user.userid === guide.userid);
}

/** Its author, and anyone holding Author, Moderator or Admin. */
export function canEditGuide(user: UserRow | null, guide: Pick<GuideRow, 'userid'>): boolean {
  return user !== null && (user.userid === guide.userid || canEditContent(user));
}

/**
 * The guide named by a route parameter, if the caller may see it: 404 for an unknown id, and for a
 * private guide 401 when anonymous, 403 when signed in without rights. `edit` also needs edit rights.
 */
export function guideForRequest(
  db: Db,
  c: Context<AppEnv>,
  param: string | undefined,
  access: 'view' | 'edit' = 'view',
): GuideRow {
  const guideid = routeId(param);
  const row = guideid === null ? undefined : getGuideRow(db, guideid);
  if (!row) throw notFound('No such guide');
  const user = currentUser(c);
  if (!canViewGuide(user, row)) throw user ? forbidden('This guide is private') : unauthorized();
  if (access === 'edit') {
    if (!user) throw unauthorized();
    if (!canEditGuide(user, row)) throw forbidden('You cannot edit this guide');
  }
  return row;
}

/** A modified_date after `previous`: the clock's time, nudged forward when the clock has not moved on. */
export function nextModified(previous: number, now: number): number {
  return Math.max(now, Math.round((previous + 0.001) * 1000) / 1000);
}
