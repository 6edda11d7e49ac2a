import { answerWords } from '../../../shared/field-answers.ts';
import { isMediaField } from '../../../shared/field-values.ts';
import { userName } from '../../api/users-api.ts';
import type { SiteEntry } from '../../api/work-log-api.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import { UNNAMED_TAKER } from '../../db/repos/session-site-state.ts';
import { SITE_DECIDED } from '../../../shared/site-decided.ts';
import { adoptServerState, theirValues } from './adopt.ts';
import { learnSiteValues } from './learn-site.ts';
import { stepDataPayload } from './payloads.ts';
import type { WorklogContext } from './context.ts';

const DONE_HERE: Record<string, string> = {
  pause: 'Paused',
  resume: 'Resumed',
  suspend: 'Handed over',
  assume: 'Took over',
  finish: 'Finished',
  cancel: 'Cancelled',
};

/** A kept line that is a transition's time ("Paused here at …"), not a value the technician entered. */
const TIME_LINE = new RegExp(`^(${Object.values(DONE_HERE).join('|')}) here at \\S+$`);

/** Times go in ISO 8601 (UTC): the renderer shows them in the technician's local time. */
const iso = (unix: number): string => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Whether the site's entry leaves this laptop's session nothing more to do: ended, or someone else's now. */
export const siteTookIt = (entry: SiteEntry, userid: number): boolean =>
  entry.status === 'complete' || entry.status === 'cancelled' || entry.userid !== userid;

/** What recording the site's decision works with: the replay's context, or the sync's look (handed-over-look.ts). */
export type DecisionContext = Pick<
  WorklogContext,
  | 'sessions'
  | 'conflicts'
  | 'guides'
  | 'outbox'
  | 'transaction'
  | 'transport'
  | 'technician'
  | 'now'
  | 'conflict'
  | 'amendConflict'
>;

/**
 * The site decided the session (taken over, cancelled or finished elsewhere; issue 16): the session takes
 * the site's state at once, and every action of it still queued here leaves the outbox for ONE open
 * conflict record per session, in plain words, with who (the site's name for them) and when. Nothing the
 * technician entered is lost: the values stay in the record, to copy.
 */
export async function followSite(
  ctx: WorklogContext,
  row: OutboxRow,
  sessionId: string,
  theirs: SiteEntry,
): Promise<void> {
  const session = ctx.sessions.state(sessionId);
  if (!session) return;
  const decision = await siteDecision(ctx, session.userid, theirs);
  const queued = () => ctx.outbox.all(ctx.technician).filter((r) => r.chain === row.chain && r.id >= row.id);
  ctx.transaction(() => recordDecision(ctx, session, decision, queued()));
}

/** What the site decided, in the words of its record, and the entry it was read from (null: the site would not). */
export interface SiteDecision {
  /** The record's label ("Taken over on the site by Jordan"): the session's banner and report say it. */
  what: string;
  /** When the site says it ended (" at …"), or nothing. */
  when: string;
  /** The first line of the site's side of the record ("Taken over by Jordan at …"). */
  verdict: string;
  entry: SiteEntry | null;
}

/** The site's decision read from its entry: who by the site's name (one look-up), what, and when. */
export async function siteDecision(ctx: DecisionContext, userid: number, theirs: SiteEntry): Promise<SiteDecision> {
  const someoneElse = theirs.userid !== userid;
  const name = someoneElse ? await userName(ctx.transport, theirs.userid).catch(() => null) : null;
  // The site's entry names its technician, not who ended it: a supervisor's cancel of their job was said to be
  // theirs ("Cancelled by you, on the site or on another computer", a walk of the night question).
  const who = someoneElse
    ? (name ?? `another technician (user ${theirs.userid})`)
    : 'you on another computer or by a supervisor on the site,';
  const what =
    theirs.status === 'cancelled'
      ? SITE_DECIDED.cancelled
      : theirs.status === 'complete'
        ? SITE_DECIDED.complete
        : `${SITE_DECIDED.takenOver} ${name ?? 'another technician'}`;
  const when = theirs.endedAt !== null ? ` at ${iso(theirs.endedAt)}` : '';
  const verdict =
    theirs.status === 'cancelled' ? 'Cancelled' : theirs.status === 'complete' ? 'Finished' : 'Taken over';
  return { what, when, verdict: `${verdict} by ${who}${when}`, entry: theirs };
}

/**
 * A session the site no longer lets its technician read, once handed over (a 403: the entry is someone
 * else's now): taken over, by whom the site does not say, and perhaps finished or cancelled since. Said in
 * the words of one taken over by a colleague the site does not name, and no more than that.
 */
export const takenByUnnamed: SiteDecision = {
  what: `${SITE_DECIDED.takenOver} another technician`,
  when: '',
  verdict: 'Taken over by another technician',
  entry: null,
};

/**
 * Records the site's decision (in the caller's transaction): the session takes what is known of the site's
 * state, the actions `queued` for it leave the outbox, and its one open record says it, with what they kept.
 */
export function recordDecision(
  ctx: DecisionContext,
  session: { id: string; guideid: number },
  decision: SiteDecision,
  queued: OutboxRow[],
): void {
  const { what, when, entry } = decision;
  const sessionId = session.id;
  const lines = queued.flatMap((r) => describe(ctx, session.guideid, r));
  // What the site records in the fields kept here, under its verdict: the card showed "Worn" beside "Taken over
  // by Jordan" only, never that the site says "Good" (a walk of a hand-over).
  const values = entry ? siteValues(ctx, session.guideid, queued, entry) : [];
  const siteSays = [decision.verdict, ...values].join('\n');
  if (entry) {
    adoptServerState(ctx, sessionId, entry);
    // The site's values too, where nothing here changed them: the read-only session and its report show what
    // the site records (an office value entered before the cancel stayed blank here).
    learnSiteValues(ctx, session, theirValues(ctx.guides, session.guideid, entry), new Set());
  } else {
    // Someone the site does not name has it: no state of theirs to take, the session is no longer this one's.
    ctx.sessions.update(sessionId, { userid: UNNAMED_TAKER }, ctx.now());
  }
  for (const r of queued) ctx.outbox.remove(r.id);
  const open = ctx.conflicts.openOfSession(sessionId, ctx.technician);
  const kept = [open?.mine, ...lines].filter((l): l is string => Boolean(l)).join('\n');
  const mine = kept || null;
  // What the site would not show is not said to be kept: who has it now, and whether it ended since.
  const state = entry
    ? "The site's state was kept"
    : 'The site no longer shows it to you, so whether it was finished or cancelled since is not known here';
  // Only a record that keeps something says so (issue 28: "kept below" over nothing misled), and only
  // one that keeps a value asks to copy values (a pause kept is a time, listed).
  const message = !mine
    ? `${what}${when}. ${state}; nothing you did here was waiting to be sent.`
    : kept.split('\n').some((line) => !TIME_LINE.test(line))
      ? `${what}${when}. ${state}; what you did here after that ` +
        `did not reach the site and is kept below: copy the values if you need them.`
      : `${what}${when}. ${state}; what you did here after that did not reach the site and is listed below.`;
  if (open) ctx.amendConflict(open.id, { mine, theirs: siteSays, message });
  else
    ctx.conflict({
      sessionId,
      kind: 'transition',
      fieldGuid: null,
      stepid: null,
      label: what,
      mine,
      theirs: siteSays,
      base: null,
      message,
    });
}

/** The site's value, in words, of each field the queued saves set ("Fork condition: Good"), in their order. */
function siteValues(ctx: DecisionContext, guideid: number, rows: OutboxRow[], theirs: SiteEntry): string[] {
  const guids = new Set(
    rows.flatMap((r) => {
      if (r.kind !== 'stepData') return [];
      const parsed = stepDataPayload.safeParse(JSON.parse(r.payload));
      return parsed.success ? parsed.data.fields.map((field) => field.fieldGuid) : [];
    }),
  );
  if (guids.size === 0) return [];
  const fields = new Map(
    ctx.guides.formsOfGuide(guideid).flatMap((form) => form.fields.map((f) => [f.fieldGuid, f] as const)),
  );
  const values = theirValues(ctx.guides, guideid, theirs);
  return [...guids].map((guid) => {
    const known = fields.get(guid);
    const value = values.get(guid) ?? null;
    const words =
      value === null || value === ''
        ? 'not answered'
        : isMediaField(known?.type ?? 'Text Input')
          ? 'a file'
          : answerWords(known, value);
    return `${known?.label ?? guid}: ${words}`;
  });
}

/** A queued transition in words ("Paused here at …"); nothing for any other action. */
export const doneHere = (row: OutboxRow): string[] =>
  DONE_HERE[row.kind] ? [`${DONE_HERE[row.kind]} here at ${iso(row.actedAt)}`] : [];

/** One queued action in words: "Paused here at …", "Truck number: FL-07". Uploads are told by their value. */
function describe(ctx: DecisionContext, guideid: number, row: OutboxRow): string[] {
  if (DONE_HERE[row.kind]) return doneHere(row);
  if (row.kind !== 'stepData') return [];
  const parsed = stepDataPayload.safeParse(JSON.parse(row.payload));
  if (!parsed.success) return [];
  const fields = new Map(
    ctx.guides.formsOfGuide(guideid).flatMap((form) => form.fields.map((f) => [f.fieldGuid, f] as const)),
  );
  return parsed.data.fields.map((field) => {
    const file = field.attachmentId ? ctx.sessions.attachment(field.attachmentId) : undefined;
    const known = fields.get(field.fieldGuid);
    // In words, as the form asked: a checkbox is Yes / No, never 1 / 0.
    const value = file ? `${file.uploadName} (the file is kept on this computer)` : answerWords(known, field.value);
    return `${known?.label ?? field.fieldGuid}: ${value}`;
  });
}
