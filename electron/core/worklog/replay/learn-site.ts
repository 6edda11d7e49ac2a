import type { WorklogContext } from './context.ts';

/**
 * The site's values that someone else changed, learned from a 409's entry (the site's now) for the fields
 * nothing queued here holds (`handled`: a save being merged, later saves, each checked on its own): a field
 * the technician has not changed from what the site had takes the site's value, the one they did keeps
 * theirs against the site's as its base. Before, the session took the entry's revision only: the office's
 * "No" on a seat belt check stayed unknown here, the step showed it unanswered, and the technician's tick
 * then went on that revision unchecked, overwriting it without a card.
 */
export function learnSiteValues(
  ctx: Pick<WorklogContext, 'sessions' | 'guides' | 'now'>,
  session: { id: string; guideid: number },
  site: ReadonlyMap<string, string | null>,
  handled: ReadonlySet<string>,
): void {
  const rows = new Map(ctx.sessions.values(session.id).map((v) => [v.fieldGuid, v]));
  let where: Map<string, { fieldRevisionid: number; stepid: number }> | null = null;
  for (const [guid, value] of site) {
    if (handled.has(guid)) continue;
    const row = rows.get(guid);
    const known = row ? (row.serverValue ?? null) : null;
    if (row && known === value) continue;
    // A file's value is the site's media item: it is not on this computer to show.
    if (row?.attachmentId) continue;
    where ??= new Map(
      ctx.guides
        .formsOfGuide(session.guideid)
        .flatMap((form) =>
          form.fields.map((f) => [f.fieldGuid, { fieldRevisionid: f.fieldRevisionid, stepid: form.stepid }] as const),
        ),
    );
    const fallback = row ? { fieldRevisionid: row.fieldRevisionid, stepid: row.stepid } : where.get(guid);
    if (!fallback) continue;
    const untouched = !row || (row.value ?? null) === known;
    // A value of the technician's, on the site, replaced there since: the field says what they had saved.
    const mine = row?.value ?? null;
    const replaced = untouched && mine !== null && mine !== value ? { was: mine, at: ctx.now() } : null;
    ctx.sessions.setServerValue(session.id, guid, value, untouched, fallback, replaced);
  }
}
