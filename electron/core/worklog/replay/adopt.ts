import type { SiteEntry } from '../../api/work-log-api.ts';
import type { GuidesRepo } from '../../db/repos/guides-repo.ts';
import { isEnded } from '../../../shared/worklog.ts';
import type { WorklogContext } from './context.ts';
import { learnSiteValues } from './learn-site.ts';

/**
 * The site's values by field_guid (falling back to our forms for a server that sends only revision ids).
 * The forms are read only then: each answer to a save comes here, and a long guide has many forms to parse.
 */
export function theirValues(guides: GuidesRepo, guideid: number, entry: SiteEntry): Map<string, string | null> {
  let byRevision: Map<number, string> | null = null;
  const guidOf = (revisionid: number): string | undefined => {
    byRevision ??= new Map(
      guides.formsOfGuide(guideid).flatMap((form) => form.fields.map((f) => [f.fieldRevisionid, f.fieldGuid] as const)),
    );
    return byRevision.get(revisionid);
  };
  const values = new Map<string, string | null>();
  for (const datum of entry.values) {
    const guid = datum.fieldGuid ?? guidOf(datum.fieldRevisionid);
    if (guid) values.set(guid, datum.value);
  }
  return values;
}

/**
 * The guide revision the site keeps the entry on, when its answer says (a site that gives none says nothing, and
 * what an earlier answer said stays). The session itself goes on with its own revision (DESIGN.md §3).
 */
const siteGuideRevision = (entry: SiteEntry): { siteGuideRevisionid?: number } =>
  entry.guideRevisionid === null ? {} : { siteGuideRevisionid: entry.guideRevisionid };

/** Records the site's revision (and entry id) after an answer; the technician's own state stays. */
export function adoptRevision(ctx: WorklogContext, sessionId: string, entry: SiteEntry): void {
  ctx.sessions.update(
    sessionId,
    { entryid: entry.entryid, serverRevisionid: entry.revisionid, ...siteGuideRevision(entry) },
    ctx.now(),
  );
}

/** Takes the site's state of the entry as the session's (after a conflict the site won). */
export function adoptServerState(
  ctx: Pick<WorklogContext, 'sessions' | 'now'>,
  sessionId: string,
  entry: SiteEntry,
): void {
  const ended = isEnded(entry.status);
  ctx.sessions.update(
    sessionId,
    {
      entryid: entry.entryid,
      serverRevisionid: entry.revisionid,
      status: entry.status,
      userid: entry.userid,
      endedAt: ended ? entry.endedAt : null,
      pauseSeconds: entry.pauseSeconds,
      ...siteGuideRevision(entry),
    },
    ctx.now(),
  );
}

/**
 * The technician's own entry as the site has it now, worked on from another computer (taken back there, paused,
 * handed over again): the session takes its state, clock, step and values, and stays theirs. Nothing is queued:
 * the site already has it. A value the site has that nothing here changed is taken (learn-site.ts). Its clock is
 * the site's since: time it ran while Fieldguide was closed here is not asked about (unwatched.ts), not even time
 * noted before, until its technician changes its state here.
 */
export function followOwnEntry(
  ctx: Pick<WorklogContext, 'sessions' | 'guides' | 'now'>,
  session: { id: string; guideid: number; pausedAt: number | null },
  entry: SiteEntry,
): void {
  const running = entry.status === 'started';
  const pausedAt = running ? null : (entry.pausedAt ?? session.pausedAt ?? ctx.now());
  // Only values changed there (a later revision, the same state): the session's state and clock are still this
  // computer's. It said "Resumed on another computer or on the site" of a session nobody had paused; its fields say
  // what changed (learn-site.ts).
  const before = ctx.sessions.state(session.id);
  const stateChanged = before?.status !== entry.status || (!running && before.pausedAt !== pausedAt);
  ctx.sessions.update(
    session.id,
    {
      serverRevisionid: entry.revisionid,
      status: entry.status,
      // Stopped since the site says; since it stopped here when it does not say (a site that keeps no such time).
      pausedAt,
      pauseSeconds: entry.pauseSeconds,
      ...(entry.activeStepid !== null ? { activeStepid: entry.activeStepid } : {}),
      ...(stateChanged ? { stateFromSite: ctx.now() } : {}),
      ...siteGuideRevision(entry),
    },
    ctx.now(),
  );
  if (stateChanged) ctx.sessions.ranUnwatched.set(session.id, null);
  // Theirs since: what a colleague did with it before (handed-back.ts) is not said again at its next hand-over.
  ctx.sessions.setHandedBack(session.id, null);
  learnSiteValues(ctx, session, theirValues(ctx.guides, session.guideid, entry), new Set());
}
