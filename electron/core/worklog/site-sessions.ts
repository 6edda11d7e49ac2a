import type { HandedOverList, SuspendedList, TakenFrom, WorkSession, WorkStatus } from '../../contract.ts';
import { asAppFailure } from '../api/app-failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import { getEntry, suspendedEntries, type SiteEntry } from '../api/work-log-api.ts';
import { pinKey } from '../db/chains.ts';
import { UNNAMED_TAKER } from '../db/repos/session-site-state.ts';
import type { SessionState } from '../db/repos/sessions-repo.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';
import { canApply, isEnded } from '../../shared/worklog.ts';
import { plural } from '../../shared/words.ts';
import { describeEntries, handedOver, noteTakenHere } from './handed-over.ts';
import { newerOnSite } from './handed-back.ts';
import { followOwnEntry, theirValues } from './replay/adopt.ts';
import { removedOnSite } from './session-access.ts';
import { sessionChain } from './session-chain.ts';
import type { WorkSessions } from './work-sessions.ts';

export interface SiteSessionsDeps {
  store: Store;
  work: WorkSessions;
  /** The current technician (throws when nobody works now). */
  technician: () => { id: number; userid: number };
  now: () => number;
  onSession: (session: WorkSession) => void;
}

/** Sessions the site knows and this computer does not yet: handed over by others, or started elsewhere. */
export class SiteSessions {
  constructor(private readonly deps: SiteSessionsDeps) {}

  /**
   * Sessions of a guide suspended on the site, with who suspended them and when (needs the network). What
   * the site listed is checked again: an entry of another guide, or one not suspended, is not offered here.
   */
  async suspended(guideid: number, transport: ApiTransport): Promise<SuspendedList> {
    const { entries, unreadable } = await siteCall(() => suspendedEntries(transport, guideid));
    const ofGuide = entries.filter((entry) => entry.guideid === guideid && entry.status === 'suspended');
    return { sessions: await describeEntries(this.deps, transport, ofGuide), unreadable: unreadable.length };
  }

  /** Sessions others handed over, across guides (from the site, or as last learned when it does not answer). */
  handedOver(transport: ApiTransport): Promise<HandedOverList> {
    return handedOver(this.deps, transport);
  }

  /** Takes over a session another technician suspended: stored locally, the `assume` queued. */
  async assume(entryid: number, transport: ApiTransport): Promise<WorkSession> {
    const found = this.deps.store.sessions.byEntry(entryid);
    const known = found && (await this.#handedBackHere(found, transport));
    if (known) {
      // Checked before it changes hands: refused after, a session its technician had taken back moved to the
      // taker here all the same (a "handed over" row learned before, offered offline).
      if (!canApply(known.status, 'assume')) throw notSuspended(known.status);
      // A sync learned that someone took it over on the site (handed-over-look.ts): it stays suspended here.
      if (known.userid === UNNAMED_TAKER)
        throw new AppFailure(
          'invalid_transition',
          'This session was taken over on the site by another technician: it is no longer handed over.',
        );
      if (known.removedOnSite !== null) throw removedOnSite();
      this.#handOverHere(known.id);
      return this.deps.work.transition(known.id, 'assume');
    }
    // The site shows another technician's entry only while it is handed over: refused, its technician has it
    // again (it said "This work-log entry belongs to someone else", the site's words, beside "Handed over by").
    const entry = await siteCall(() => getEntry(transport, entryid)).catch((error: unknown) => {
      throw error instanceof AppFailure && error.code === 'forbidden' ? notSuspended('started') : error;
    });
    if (entry.status !== 'suspended') throw notSuspended(entry.status);
    // Who handed it over, by name (the site's, when it gives it): the report names them beside the taker.
    const [described] = await describeEntries(this.deps, transport, [entry]);
    const from = { userid: entry.userid, name: described?.handedOverBy ?? null, at: entry.pausedAt };
    return this.deps.work.transition(this.#store(entry, from), 'assume');
  }

  /**
   * One of this technician's sessions a colleague took over on the site, offered to take over as handed over again
   * (a Sessions row): once its card is read the sync no longer follows it (taken-over-look.ts), and it was refused
   * as "no longer handed over", running here as the colleague last had it. The site's entry is read first: handed
   * over again, the session is theirs again as the site has it, to take back. Any other session is as it was.
   */
  async #handedBackHere(known: SessionState, transport: ApiTransport): Promise<SessionState> {
    const { store, now } = this.deps;
    const me = this.deps.technician();
    // Taken by someone the site would not name, too: the site shows the entry again once it is handed over.
    if (known.userid === me.userid || known.entryid === null || known.removedOnSite !== null || isEnded(known.status))
      return known;
    if (store.sessions.technicianOf(known.id) !== me.id) return known;
    const entryid = known.entryid;
    const entry = await siteCall(() => getEntry(transport, entryid));
    if (entry.status !== 'suspended' || !newerOnSite(entry, known)) return known;
    store.transaction(() => {
      store.sessions.update(known.id, { userid: me.userid }, now());
      followOwnEntry({ sessions: store.sessions, guides: store.guides, now }, known, entry);
    });
    return store.sessions.state(known.id)!;
  }

  /** Continues here a session of yours that the site knows (started on another computer). */
  async open(entryid: number, transport: ApiTransport): Promise<WorkSession> {
    const known = this.deps.store.sessions.byEntry(entryid);
    if (known && this.deps.store.sessions.technicianOf(known.id) !== this.deps.technician().id) {
      throw new AppFailure(
        'forbidden',
        'This session belongs to another technician: take it over once it is suspended.',
      );
    }
    if (known) return this.deps.work.view(known.id);
    const entry = await siteCall(() => getEntry(transport, entryid));
    if (isEnded(entry.status)) {
      throw new AppFailure('invalid_transition', `This session is ${entry.status}: there is nothing left to do in it.`);
    }
    if (entry.userid !== this.deps.technician().userid)
      throw new AppFailure(
        'forbidden',
        'This session belongs to another technician: take it over once it is suspended.',
      );
    const id = this.#store(entry);
    const view = this.deps.work.view(id);
    this.deps.onSession(view);
    return view;
  }

  /**
   * A session another technician of this laptop suspended, taken over here: it becomes the current
   * technician's, once nothing of the former one's is left to send in it (their actions go under their name first).
   */
  #handOverHere(sessionId: string): void {
    const { store } = this.deps;
    const me = this.deps.technician().id;
    const owner = store.sessions.technicianOf(sessionId);
    if (owner === me) return;
    const waiting = store.outbox.chainLength(sessionId);
    if (waiting > 0) {
      const name =
        owner === null ? 'an earlier technician' : (store.technicians.get(owner)?.username ?? 'another technician');
      throw new AppFailure(
        'conflict',
        `${name} has ${plural(waiting, 'action')} in this session that ${waiting === 1 ? 'has' : 'have'} not ` +
          `reached the site yet: it can be taken over once ${waiting === 1 ? 'it has' : 'they have'}.`,
        { waiting },
      );
    }
    const session = store.sessions.state(sessionId)!;
    const taken = {
      workorderid: session.workorderid,
      guideTitle: store.guides.getListItem(session.guideid)?.title ?? `Guide ${session.guideid}`,
      takenBy: store.technicians.get(me)?.username ?? 'another technician',
      at: this.deps.now(),
    };
    const handedBy = owner === null ? undefined : store.technicians.get(owner);
    store.transaction(() => {
      store.sessions.handOver(sessionId, me);
      const from = { userid: session.userid, name: handedBy?.username ?? null, at: session.pausedAt };
      store.sessions.setTakenFrom(sessionId, from);
      if (owner !== null) noteTakenHere(store, owner, taken);
    });
  }

  /** Stores a site's entry as a local session, with the site's values as confirmed values. */
  #store(entry: SiteEntry, takenFrom?: TakenFrom): string {
    const { store } = this.deps;
    const guide = store.guides.getDetail(entry.guideid);
    if (!guide)
      throw new AppFailure('not_found', 'Sync the guide of this session before working on it here.', {
        guideid: entry.guideid,
      });
    const id = crypto.randomUUID();
    const now = this.deps.now();
    const paused = entry.status === 'paused' || entry.status === 'suspended';
    const fields = new Map(
      guide.steps.flatMap((s) =>
        s.form ? s.form.fields.map((f) => [f.fieldGuid, { f, stepid: s.stepid }] as const) : [],
      ),
    );
    const theirs = [...theirValues(store.guides, entry.guideid, entry)].flatMap(([guid, value]) => {
      const field = fields.get(guid);
      return field ? [{ guid, value, field }] : [];
    });
    // A paused or handed-over entry has no active step on the site until it goes on: it opens at the last
    // step holding a value (the work stopped there or just after), not at the guide's first step.
    const withValues = new Set(theirs.map((t) => t.field.stepid));
    const lastWithValue = guide.steps.findLast((s) => withValues.has(s.stepid))?.stepid ?? null;
    store.transaction(() => {
      store.sessions.insert({
        id,
        entryid: entry.entryid,
        guideid: entry.guideid,
        guideRevisionid: entry.guideRevisionid ?? guide.revisionid,
        guideTitle: guide.title,
        workorderid: entry.workorderid,
        userid: entry.userid,
        status: entry.status,
        serverRevisionid: entry.revisionid,
        startedAt: entry.startedAt,
        // Paused since the site says (a session handed over a day ago waited a day, not worked it); since
        // now only from a site that does not say, whose pause time this computer cannot know.
        pausedAt: paused ? Math.min(entry.pausedAt ?? now, now) : null,
        pauseSeconds: entry.pauseSeconds,
        activeStepid: entry.activeStepid ?? (paused ? lastWithValue : null),
        now,
        technician: this.deps.technician().id,
      });
      store.guides.pin(guide.guideid, guide.revisionid, pinKey(sessionChain(id)));
      if (takenFrom) store.sessions.setTakenFrom(id, takenFrom);
      for (const { guid, value, field } of theirs)
        store.sessions.setServerValue(id, guid, value, true, {
          fieldRevisionid: field.f.fieldRevisionid,
          stepid: field.stepid,
        });
    });
    return id;
  }
}

async function siteCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asAppFailure(error);
  }
}

/** Why a session is not there to take over, in the technician's words (not "This session is started, not …"). */
const notSuspended = (status: WorkStatus): AppFailure =>
  new AppFailure(
    'invalid_transition',
    isEnded(status)
      ? `This session was ${status === 'complete' ? 'finished' : 'cancelled'} on the site: there is nothing left to ` +
          'take over.'
      : 'This session is no longer handed over: its technician is working on it again, so it cannot be taken over.',
    { status },
  );
