import type { WorkStatus, WorkTransition } from '../../contract.ts';
import { ApiError } from './errors.ts';
import { classify, notThere } from './failure.ts';
import type { ApiTransport } from './transport.ts';
import {
  invalidTransitionWire,
  transitionAnswerWire,
  workLogEntriesWire,
  workLogEntryWire,
  type WorkLogEntryWire,
} from './wire/work-log.ts';

// The work-log calls the outbox replays (reference 4.10, DESIGN.md §7), each answering in the project's words.

/** A work-log entry as the site has it. */
export interface SiteEntry {
  entryid: number;
  guideid: number;
  guideRevisionid: number | null;
  userid: number;
  workorderid: string;
  status: WorkStatus;
  startedAt: number;
  endedAt: number | null;
  /** Null from a site that does not version entries: the client then sends none. */
  revisionid: number | null;
  activeStepid: number | null;
  pauseSeconds: number;
  /** When the running pause or suspension began, from a site that says (unix seconds). */
  pausedAt: number | null;
  /** Step data, by field revision and (when the site says) by `field_guid`; checkboxes as "1"/"0". */
  values: { fieldGuid: string | null; fieldRevisionid: number; value: string }[];
}

function toSiteEntry(wire: WorkLogEntryWire): SiteEntry {
  return {
    entryid: wire.entryid,
    guideid: wire.guideid,
    guideRevisionid: wire.guide_revisionid ?? null,
    userid: wire.userid,
    workorderid: wire.workorderid,
    status: wire.status,
    startedAt: wire.starttime,
    endedAt: wire.endtime ?? null,
    revisionid: wire.revisionid ?? null,
    activeStepid: wire.active_stepid ?? null,
    pauseSeconds: wire.pause_duration ?? 0,
    pausedAt: wire.paused_at ?? null,
    values: (wire.work_data ?? []).map((datum) => ({
      fieldGuid: datum.field_guid ?? null,
      fieldRevisionid: datum.field_revisionid,
      value: datum.value,
    })),
  };
}

const entry = workLogEntryWire.transform(toSiteEntry);
// Made once: a schema made per request cost the replay ~10 µs a change (stop 66's profile).
const entryOrNothing = entry.optional();
const transitionAnswerOrNothing = transitionAnswerWire.optional();

/**
 * A list of entries as far as it can be read: an entry of a shape this version does not read (a status it
 * does not know, a value it cannot take) is set apart as the site sent it, and the others are kept. One odd
 * entry of another user's must not hide every session handed over to the technician; whoever decides on
 * what it lists says what an entry it cannot read means there (findStart: maybe the start itself).
 */
export interface ReadableEntries {
  entries: SiteEntry[];
  /** The listed entries it could not read, as the site sent them. */
  unreadable: unknown[];
}

const readableEntries = workLogEntriesWire.transform((list): ReadableEntries => {
  const read: ReadableEntries = { entries: [], unreadable: [] };
  for (const listed of list.results) {
    const parsed = workLogEntryWire.safeParse(listed);
    if (parsed.success) read.entries.push(toSiteEntry(parsed.data));
    else read.unreadable.push(listed);
  }
  return read;
});

/**
 * Starts an entry for `userid` (the technician whose sign-in sends it). The answer must be that start: an
 * entry of another guide, work order or user (a faulty site, answers mixed up on the way) is refused, not
 * taken, so the session never goes on in someone else's entry; the start is then looked for on the site
 * like one whose answer was lost.
 */
export async function startEntry(
  t: ApiTransport,
  body: { guideid: number; workorderid: string; stepid?: number; timestamp: number },
  userid: number,
): Promise<SiteEntry> {
  const made = await t.request('POST', '/work_log', { json: body, schema: entry });
  if (made.guideid === body.guideid && sameWorkorder(made.workorderid, body.workorderid) && made.userid === userid)
    return made;
  throw new ApiError(
    'bad_response',
    'POST /work_log',
    `The site answered this start with another work session (entry ${made.entryid}: work order ` +
      `${made.workorderid}, guide ${made.guideid}, user ${made.userid}), so the answer was not taken. ` +
      'Fieldguide looks for this start on the site before it sends it again.',
  );
}

/** The same work order: as typed, or as a site that keeps a number gives it back ("0042" as 42). */
export const sameWorkorder = (site: string, ours: string): boolean =>
  site === ours || (/^\d+$/.test(site) && /^\d+$/.test(ours) && Number(site) === Number(ours));

/**
 * A transition; when the site answers only the times (a finish on Dozuki) or nothing at all (no public
 * shape is known for pause, resume, suspend, cancel or assume), the entry is read back.
 */
export async function transitionEntry(
  t: ApiTransport,
  entryid: number,
  transition: WorkTransition,
  revisionid: number | null,
  timestamp: number,
): Promise<SiteEntry> {
  const answer = await t.request('POST', `/work_log/${entryid}/${transition}`, {
    query: { revisionid: revisionid ?? undefined },
    json: { timestamp },
    schema: transitionAnswerOrNothing,
  });
  return answer !== undefined && 'entryid' in answer && typeof answer.entryid === 'number'
    ? ofEntry(entryid, `POST /work_log/${entryid}/${transition}`, toSiteEntry(answer as WorkLogEntryWire))
    : getEntry(t, entryid);
}

/**
 * A save of step data. A site that answers it with no body (public-shapes.md: one public client saw so)
 * has applied it: the entry is read back, for its revision and the values it now holds.
 */
export async function putStepData(
  t: ApiTransport,
  entryid: number,
  revisionid: number | null,
  body: { fields: Record<string, string | null>; stepid?: number; timestamp: number },
): Promise<SiteEntry> {
  const answer = await t.request('PUT', `/work_log/${entryid}/stepData`, {
    query: { revisionid: revisionid ?? undefined },
    json: body,
    schema: entryOrNothing,
  });
  return answer ? ofEntry(entryid, `PUT /work_log/${entryid}/stepData`, answer) : getEntry(t, entryid);
}

export const getEntry = async (t: ApiTransport, entryid: number, signal?: AbortSignal): Promise<SiteEntry> =>
  ofEntry(
    entryid,
    `GET /work_log/${entryid}`,
    await t.request('GET', `/work_log/${entryid}`, { schema: entry, ...(signal ? { signal } : {}) }),
  );

/**
 * The site's answer about the entry it was asked of. One about another entry (a faulty site, a proxy that
 * mixed up answers) is refused, not taken: taken, the session would go on in someone else's entry, and
 * the next pause or value would be sent there.
 */
function ofEntry(entryid: number, resource: string, answer: SiteEntry): SiteEntry {
  if (answer.entryid === entryid) return answer;
  throw new ApiError(
    'bad_response',
    resource,
    `The site answered this change with another work session (entry ${answer.entryid}, not ${entryid}), so ` +
      'the answer was not taken. Fieldguide checks the site before it sends it again.',
  );
}

/**
 * Whether the site no longer has entry `entryid` (deleted there): its read answers 404 (or 410) while the work log
 * itself answers. A site without the module answers 404 to both (capabilities-api.ts): that is not a deletion.
 * A failure that says nothing either way (no answer, a busy site) is thrown.
 */
export async function entryDeleted(t: ApiTransport, entryid: number): Promise<boolean> {
  try {
    await getEntry(t, entryid);
    return false;
  } catch (error) {
    if (classify(error).kind !== 'gone') throw error;
  }
  try {
    await t.request('GET', '/work_log', { query: { limit: 1 } });
    return true;
  } catch (error) {
    if (notThere(classify(error))) return false;
    throw error;
  }
}

/** The entries of a guide and work order for one user, newest first: how a lost `start` is found. */
export const findEntries = (
  t: ApiTransport,
  filter: { guideid: number; workorderid: string; userid: number },
): Promise<ReadableEntries> =>
  t.request('GET', '/work_log', { query: { ...filter, order: 'DESC', limit: 200 }, schema: readableEntries });

/**
 * A site's start time is the one the start was sent with, or at most this much earlier (its clock, re-dated
 * here by its `Date` header of whole seconds: send-time.ts).
 */
const SENT_TIME_SLACK_SECONDS = 1;

/**
 * Entries on the site that a send of this start may have made, oldest first: the list asked for its guide,
 * work order and user, checked again here, started at one of the times it was sent with or after the earliest
 * (a site on its own clock records when it applied the start: DESIGN.md §7, landed.ts decides). A site that
 * ignores one of the list's filters lists others' entries too, and a colleague's start of the same work order
 * in the same second is theirs, never to be taken over or removed as a second copy of this one. An entry the
 * list holds that cannot be read may be this start, unless what can be read of it (guide, work order, user,
 * start time) says otherwise: then nothing can be decided, and the answer is refused as one that cannot be
 * read (the start waits: sent again, it would make a second session).
 */
export async function findStart(
  t: ApiTransport,
  start: { guideid: number; workorderid: string; userid: number },
  times: readonly number[],
): Promise<SiteEntry[]> {
  const { entries, unreadable } = await findEntries(t, start);
  if (unreadable.some((listed) => mayBeStart(listed, start, times))) {
    throw new ApiError(
      'bad_response',
      'GET /work_log',
      `The site's work log lists an entry for work order ${start.workorderid} that Fieldguide cannot read: ` +
        'whether this start reached the site cannot be told, so it is not sent again yet.',
    );
  }
  return entries
    .filter(
      (entry) =>
        entry.guideid === start.guideid &&
        sameWorkorder(entry.workorderid, start.workorderid) &&
        entry.userid === start.userid &&
        mayBeSentAt(entry.startedAt, times),
    )
    .sort((a, b) => a.entryid - b.entryid);
}

/** Started at a time a start was sent with, or after the earliest (on the site's own clock). */
const mayBeSentAt = (startedAt: number, times: readonly number[]): boolean =>
  times.includes(startedAt) || startedAt >= Math.min(...times) - SENT_TIME_SLACK_SECONDS;

/** Whether an entry it cannot read may still be this start: nothing it can read of it says otherwise. */
function mayBeStart(
  listed: unknown,
  start: { guideid: number; workorderid: string; userid: number },
  times: readonly number[],
): boolean {
  if (typeof listed !== 'object' || listed === null) return true;
  const entry = listed as Record<string, unknown>;
  const other = (value: unknown, ours: number | string) =>
    (typeof value === 'number' || typeof value === 'string') && !sameWorkorder(String(value), String(ours));
  return !(
    other(entry.guideid, start.guideid) ||
    other(entry.workorderid, start.workorderid) ||
    other(entry.userid, start.userid) ||
    (typeof entry.starttime === 'number' && !mayBeSentAt(entry.starttime, times))
  );
}

/**
 * A user's newest entries across guides (at most 200): the guides they worked on (sync/worked-guides.ts).
 * Only theirs: a site that ignores the filter lists others' too, and their guides are not this user's work.
 */
export async function entriesOfUser(t: ApiTransport, userid: number, signal?: AbortSignal): Promise<ReadableEntries> {
  const listed = await t.request('GET', '/work_log', {
    query: { userid, order: 'DESC', limit: 200 },
    schema: readableEntries,
    ...(signal ? { signal } : {}),
  });
  return { ...listed, entries: listed.entries.filter((entry) => entry.userid === userid) };
}

/** Removes an entry (a second one a slow site made); a stale revision is a 409: it changed since it was seen. */
export async function deleteEntry(t: ApiTransport, entryid: number, revisionid: number | null): Promise<void> {
  await t.request('DELETE', `/work_log/${entryid}`, { query: { revisionid: revisionid ?? undefined } });
}

/** Every suspended entry the caller may take over, across guides, in one request (newest first). */
export const suspendedForTaker = (t: ApiTransport, signal?: AbortSignal): Promise<ReadableEntries> =>
  t.request('GET', '/work_log', {
    query: { status: 'suspended', order: 'DESC', limit: 200 },
    schema: readableEntries,
    ...(signal ? { signal } : {}),
  });

export const suspendedEntries = (t: ApiTransport, guideid: number, signal?: AbortSignal): Promise<ReadableEntries> =>
  t.request('GET', `/work_log/${guideid}/suspended`, { schema: readableEntries, ...(signal ? { signal } : {}) });

/**
 * The site's current state of entry `entryid` out of a refusal: a 409 (the body is the entry) or an
 * `invalid_transition` 422. Null when the body holds none, or holds another entry (not taken: ofEntry).
 */
export function currentEntryOf(error: unknown, entryid: number): SiteEntry | null {
  const failure = classify(error);
  const read = (parsed: { success: true; data: WorkLogEntryWire } | { success: false }) =>
    parsed.success && parsed.data.entryid === entryid ? toSiteEntry(parsed.data) : null;
  if (failure.kind === 'conflict') return read(workLogEntryWire.safeParse(failure.current));
  if (failure.kind === 'refused' && failure.invalid) {
    const parsed = invalidTransitionWire.safeParse(failure.body);
    return read(parsed.success ? { success: true, data: parsed.data.entry } : { success: false });
  }
  return null;
}
