import type { Context } from 'hono';
import { statement } from '../db/statements.ts';
import type { Db } from '../db/types.ts';
import { canViewGuide } from '../guides/access.ts';
import { currentUser, isAdmin } from '../http/auth.ts';
import type { AppEnv } from '../http/env.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { UserRow } from '../users/repo.ts';

export type MediaKind = 'image' | 'video' | 'document';

const GUIDES_SHOWING = `SELECT g.userid, r.public FROM media_uses u JOIN guides g ON g.guideid = u.guideid
  JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE u.kind = ? AND u.mediaid = ?`;

/** A media object as access needs it: its id and who uploaded it. */
export interface MediaOwner {
  id: number;
  ownerid: number | null;
}

/**
 * Who may have a media file: admins, whoever uploaded it, and whoever may read a guide that shows it
 * (guides/access.ts: a public guide's media are anyone's, as on a real site's CDN). A category's picture
 * is anyone's; a video's poster goes with the video. Nothing else: a technician's photo for a step form
 * is theirs and the admins'.
 */
export function mayViewMedia(db: Db, user: UserRow | null, kind: MediaKind, media: MediaOwner): boolean {
  if (isAdmin(user) || (user !== null && media.ownerid === user.userid)) return true;
  const guides = statement(db, GUIDES_SHOWING).all(kind, media.id) as { userid: number; public: number }[];
  if (guides.some((guide) => canViewGuide(user, guide))) return true;
  if (kind !== 'image') return false;
  if (statement(db, 'SELECT 1 FROM categories WHERE imageid = ? LIMIT 1').get(media.id)) return true;
  const posterOf = statement(db, 'SELECT videoid AS id, ownerid FROM videos WHERE imageid = ?');
  const videos = posterOf.all(media.id) as MediaOwner[];
  return videos.some((video) => mayViewMedia(db, user, 'video', video));
}

/**
 * The cache headers of a file the caller may have: shared caches (a CDN) for what anyone may see, the
 * caller's own cache otherwise. A file the caller may not have answers as a private guide does: 401
 * anonymous, 403 signed in.
 */
export function mediaAccess(db: Db, c: Context<AppEnv>, kind: MediaKind, media: MediaOwner): Record<string, string> {
  if (mayViewMedia(db, null, kind, media)) return { 'Cache-Control': 'public, max-age=31536000, immutable' };
  const user = currentUser(c);
  if (!user) throw unauthorized();
  if (!mayViewMedia(db, user, kind, media)) throw forbidden('This file is not yours to see');
  return { 'Cache-Control': 'private, max-age=86400', Vary: 'Authorization' };
}

/** Whether anyone may have the file (a CDN may serve it). */
export const isPublicMedia = (db: Db, kind: MediaKind, media: MediaOwner): boolean =>
  mayViewMedia(db, null, kind, media);
