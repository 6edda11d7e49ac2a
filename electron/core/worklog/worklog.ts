import fs from 'node:fs';
import type { ApiTransport } from '../api/transport.ts';
import type { AttachmentData, UnreadableAttachment, WorkSession } from '../../contract.ts';
import { readAttachment, unreadableAttachments } from './attachments.ts';
import type { ServerClock } from '../connection/server-clock.ts';
import { ownerFolder } from '../db/owner-only.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { AppFailure } from '../result.ts';
import { Conflicts } from './conflicts.ts';
import type { SiteLookDeps } from './look-context.ts';
import { toldConflicts } from './replay/index.ts';
import { siteLook } from './site-look.ts';
import { SiteSessions } from './site-sessions.ts';
import type { KeptFiles } from './kept-files.ts';
import { ALIVE_EVERY_MS, Unwatched } from './unwatched.ts';
import { WorkSessions } from './work-sessions.ts';

export interface WorkLogDeps {
  store: Store;
  events: EventHub;
  clock: Pick<ServerClock, 'now' | 'stamp' | 'remember'>;
  /** Where actions are queued (enqueue wakes it); told when conflicts or forgotten work change its counts. */
  outbox: Pick<Outbox, 'enqueue' | 'amend' | 'changed'>;
  /** Files attached to step fields, kept while the work needs them (kept-files.ts). */
  attachmentsDir: string;
  keptFiles: Pick<KeptFiles, 'consider'>;
  /** The current technician (their local id and the site's userid), or null. */
  technician: () => { id: number; userid: number } | null;
  /** Who reads the library (the current technician): a session starts only on a guide they may read. */
  reader: () => GuideReader | null;
  /** Whether the site takes pictures only, as learned (work-sessions-deps.ts). */
  picturesOnly?: () => boolean;
  log?: (message: string) => void;
  /** How often Fieldguide notes that it runs (unwatched.ts ALIVE_EVERY_MS unless given). */
  aliveEveryMs?: number | undefined;
  /** Seconds since the computer started (unwatched.ts). */
  uptime?: (() => number) | undefined;
}

/** Work sessions: what a technician does in them, those the site knows, and the conflicts to settle. */
export class WorkLog {
  readonly sessions: WorkSessions;
  readonly site: SiteSessions;
  readonly conflicts: Conflicts;
  /** Time running sessions counted while Fieldguide was closed or the laptop slept (started with the app). */
  readonly unwatched: Unwatched;
  readonly #look: SiteLookDeps;

  constructor(private readonly deps: WorkLogDeps) {
    const { store, events, clock, outbox } = deps;
    const onSession = (session: WorkSession): void => events.emit('session', session);
    this.sessions = new WorkSessions({
      store,
      attachmentsDir: deps.attachmentsDir,
      keptFiles: deps.keptFiles,
      now: clock.now,
      clock,
      outbox,
      technician: () => {
        const me = deps.technician();
        if (me === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
        return me;
      },
      readable: (guideid) => store.guides.readable(guideid, deps.reader()),
      onChange: onSession,
      ...(deps.picturesOnly ? { picturesOnly: deps.picturesOnly } : {}),
    });
    const me = () => {
      const technician = deps.technician();
      if (technician === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
      return technician;
    };
    this.site = new SiteSessions({ store, work: this.sessions, technician: me, now: clock.now, onSession });
    this.conflicts = new Conflicts({
      store,
      work: this.sessions,
      technician: () => me().id,
      now: clock.now,
      onSession,
      onSettled: () => outbox.changed(),
      keptFiles: deps.keptFiles,
    });
    // Told to the window of the technician whose session it is, as the replay's changes are.
    const told = (ids: string[]) => {
      const technician = deps.technician()?.id;
      for (const id of ids) if (store.sessions.technicianOf(id) === technician) onSession(this.sessions.view(id));
    };
    const current = () => deps.technician()?.id ?? null;
    this.#look = {
      store,
      now: clock.now,
      conflicts: toldConflicts({ store, events, current, now: clock.now }),
      changed: (id, technician) => {
        if (technician === current()) onSession(this.sessions.view(id));
        outbox.changed();
      },
    };
    this.unwatched = new Unwatched({
      store,
      clock,
      onChange: told,
      log: deps.log ?? (() => {}),
      everyMs: deps.aliveEveryMs ?? ALIVE_EVERY_MS,
      ...(deps.uptime ? { uptime: deps.uptime } : {}),
    });
  }

  /**
   * The look at the sessions of the technician who works when a sync starts, handed over and running, with the
   * sync's transport (theirs): theirs whoever works when it runs (site-look.ts).
   */
  siteLookFor(): (transport: ApiTransport, signal?: AbortSignal) => Promise<void> {
    return siteLook(this.#look, this.deps.technician());
  }

  /**
   * A sync stored these guides: the current technician's open sessions of them are told again, and one the site
   * revised says so on screen now ("The site revised this guide" came only with the session's next save or pause).
   */
  guidesStored(guideids: readonly number[]): void {
    const me = this.deps.technician();
    if (me === null) return;
    for (const guideid of new Set(guideids))
      for (const id of this.deps.store.sessions.list({ guideid, ended: 0 }, me.id))
        this.deps.events.emit('session', this.sessions.view(id));
  }

  /** A file attached to one of the current technician's sessions, read from this computer. */
  attachment(attachmentId: string): AttachmentData {
    const me = this.deps.technician();
    if (me === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return readAttachment(this.deps.store, this.deps.attachmentsDir, me.id, attachmentId);
  }

  /** The session's files not uploaded yet that cannot be read back as saved (attachments.ts). */
  unreadable(sessionId: string): Promise<UnreadableAttachment[]> {
    const me = this.deps.technician();
    if (me === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return unreadableAttachments(this.deps.store, this.deps.attachmentsDir, me.id, sessionId);
  }

  /**
   * Another site: its sessions (all sent, all settled: connection-methods.ts refuses a switch before) are forgotten.
   */
  forget(): void {
    this.deps.store.forgetWork();
    fs.rmSync(this.deps.attachmentsDir, { recursive: true, force: true });
    ownerFolder(this.deps.attachmentsDir);
    this.deps.outbox.changed();
  }
}
