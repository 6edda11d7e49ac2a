import type { HandedBack } from '../../contract.ts';
import { answerWords } from '../../shared/field-answers.ts';
import { isMediaField } from '../../shared/field-values.ts';
import { userName } from '../api/users-api.ts';
import type { SiteEntry } from '../api/work-log-api.ts';
import { followOwnEntry, theirValues } from './replay/adopt.ts';
import type { DecisionContext } from './replay/follow-site.ts';

/**
 * Whether the site's entry is newer than what this computer last learned of the session: a later revision, or,
 * from a site that keeps none, another time it was handed over. A site that says neither tells nothing new.
 */
export const newerOnSite = (entry: SiteEntry, session: { serverRevisionid: number | null; pausedAt: number | null }) =>
  entry.revisionid !== null && session.serverRevisionid !== null
    ? entry.revisionid > session.serverRevisionid
    : entry.pausedAt !== null && entry.pausedAt !== session.pausedAt;

/** Who handed the session back, by the site's name for them (one look-up; null when it will not say), and when. */
export async function handedBackBy(ctx: DecisionContext, entry: SiteEntry): Promise<Omit<HandedBack, 'changed'>> {
  const name = await userName(ctx.transport, entry.userid).catch(() => null);
  return { userid: entry.userid, name, at: entry.pausedAt };
}

/**
 * A session handed over here that a colleague took over on the site and handed back (suspended again, theirs on
 * the site): it stayed "Handed over" with no word of it, its steps showing values the site no longer had. Now (in
 * the caller's transaction) it takes the site's revision, clock and values, stays this technician's to take back,
 * and says who had it, when they handed it back and each value they changed (was, now, in words).
 */
export function recordHandedBack(
  ctx: DecisionContext,
  session: { id: string; guideid: number; pausedAt: number | null },
  by: Omit<HandedBack, 'changed'>,
  entry: SiteEntry,
): void {
  const changed = changedValues(ctx, session, entry);
  followOwnEntry(ctx, session, entry);
  ctx.sessions.setHandedBack(session.id, { ...by, changed });
}

/** Each value the site has that differs from what this computer showed, in words (a file as "a file"). */
function changedValues(
  ctx: DecisionContext,
  session: { id: string; guideid: number },
  entry: SiteEntry,
): HandedBack['changed'] {
  const here = new Map(ctx.sessions.values(session.id).map((v) => [v.fieldGuid, v]));
  const fields = ctx.guides.formsOfGuide(session.guideid).flatMap((form) => form.fields);
  const site = theirValues(ctx.guides, session.guideid, entry);
  return fields.flatMap((field) => {
    if (!site.has(field.fieldGuid)) return [];
    const shown = here.get(field.fieldGuid);
    const [was, now] = [shown?.value ?? null, site.get(field.fieldGuid) ?? null];
    if ((was ?? '') === (now ?? '') || (shown?.attachmentId && shown.serverValue === now)) return [];
    // A file's value on the site is its media item, not on this computer to show: said as a file.
    const words = (value: string | null) => (isMediaField(field.type) && value ? 'a file' : answerWords(field, value));
    return [{ label: field.label, was: shown?.attachmentId ? 'a file' : words(was), now: words(now) }];
  });
}
