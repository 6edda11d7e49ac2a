import type { SiteEntry } from '../../api/work-log-api.ts';
import { pinKey } from '../../db/chains.ts';
import type { GuidesRepo } from '../../db/repos/guides-repo.ts';
import { isEnded } from '../../../shared/worklog.ts';
import { sessionChain } from '../session-chain.ts';
import type { WorklogContext } from './context.ts';

/** The site's values by field_guid (falling back to our forms for a server that sends only revision ids). */
export function theirValues(guides: GuidesRepo, guideid: number, entry: SiteEntry): Map<string, string | null> {
  const byRevision = new Map<number, string>();
  for (const form of guides.formsOfGuide(guideid))
    for (const field of form.fields) byRevision.set(field.fieldRevisionid, field.fieldGuid);
  const values = new Map<string, string | null>();
  for (const datum of entry.values) {
    const guid = datum.fieldGuid ?? byRevision.get(datum.fieldRevisionid);
    if (guid) values.set(guid, datum.value);
  }
  return values;
}

/** Records the site's revision (and entry id) after an answer; the technician's own state stays. */
export function adoptRevision(ctx: WorklogContext, sessionId: string, entry: SiteEntry): void {
  ctx.sessions.update(sessionId, { entryid: entry.entryid, serverRevisionid: entry.revisionid }, ctx.now());
}

/** Takes the site's state of the entry as the session's (after a conflict the site won). */
export function adoptServerState(ctx: WorklogContext, sessionId: string, entry: SiteEntry): void {
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
    },
    ctx.now(),
  );
  if (ended) ctx.guides.unpin(pinKey(sessionChain(sessionId)));
}
