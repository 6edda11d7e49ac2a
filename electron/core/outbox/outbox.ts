import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ConflictRecord, OutboxAction, OutboxSummary, OutboxView, QuizAttempt, WorkSession } from '../../contract.ts';
import { getEntry, suspendedEntries, type SiteEntry } from '../api/work-log-api.ts';
import { toAppFailure, ApiError } from '../api/errors.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { Db } from '../db/open.ts';
import { ConflictsRepo } from '../db/repos/conflicts-repo.ts';
import type { GuidesRepo } from '../db/repos/guides-repo.ts';
import { OutboxRepo, type OutboxRow } from '../db/repos/outbox-repo.ts';
import { QuizzesRepo } from '../db/repos/quizzes-repo.ts';
import { SessionsRepo } from '../db/repos/sessions-repo.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import { AppFailure } from '../result.ts';
import { isEditable, isEnded } from '../../shared/worklog.ts';
import { QuizService } from '../quiz/quiz-service.ts';
import { WorkSessions } from '../worklog/work-sessions.ts';
import { theirValues } from './adopt.ts';
import { OutboxRunner } from './runner.ts';

const PAUSE_KEY = 'outbox.pausedFor';
const OFFSET_KEY = 'clock.serverOffsetSeconds';

export interface OutboxServiceDeps {
  db: Db;
  settings: SettingsRepo;
  guides: GuidesRepo;
  dataDir: string;
  transport: () => ApiTransport | null;
  userid: () => number | null;
  onSession: (session: WorkSession) => void;
  onSummary: (summary: OutboxSummary) => void;
  onConflict: (conflict: ConflictRecord) => void;
  onQuizAttempt: (attempt: QuizAttempt) => void;
  log: (message: string) => void;
  nowMs?: () => number;
  random?: () => number;
}

const KIND_WORDS: Record<string, string> = {
  start: 'Start',
  pause: 'Pause',
  resume: 'Resume',
  suspend: 'Suspend (hand over)',
  assume: 'Take over',
  finish: 'Finish',
  cancel: 'Cancel',
  upload: 'Upload an attached file',
  quizAttempt: 'Send a quiz attempt',
};

/** Work sessions, their outbox and conflicts, behind the App API. */
export class OutboxService {
  readonly sessions: SessionsRepo;
  readonly outbox: OutboxRepo;
  readonly conflicts: ConflictsRepo;
  readonly quizzes: QuizzesRepo;
  readonly quiz: QuizService;
  readonly work: WorkSessions;
  readonly runner: OutboxRunner;
  readonly #nowMs: () => number;
  #offset: number;

  constructor(private readonly deps: OutboxServiceDeps) {
    this.sessions = new SessionsRepo(deps.db);
    this.outbox = new OutboxRepo(deps.db);
    this.conflicts = new ConflictsRepo(deps.db);
    this.quizzes = new QuizzesRepo(deps.db);
    this.#nowMs = deps.nowMs ?? Date.now;
    this.#offset = deps.settings.get(OFFSET_KEY, z.number()) ?? 0;
    const now = (): number => Math.floor(this.#nowMs() / 1000);
    const attachmentsDir = path.join(deps.dataDir, 'attachments');
    this.work = new WorkSessions({
      db: deps.db,
      sessions: this.sessions,
      outbox: this.outbox,
      guides: deps.guides,
      attachmentsDir,
      now,
      actedAt: () => Math.floor(this.#nowMs() / 1000 + this.#offset),
      userid: () => {
        const id = deps.userid();
        if (id === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
        return id;
      },
      onChange: (session) => {
        deps.onSession(session);
        this.#summary();
        this.runner.kick();
      },
    });
    this.runner = new OutboxRunner({
      context: {
        db: deps.db,
        sessions: this.sessions,
        outbox: this.outbox,
        conflicts: this.conflicts,
        guides: deps.guides,
        quizzes: this.quizzes,
        attachmentsDir,
        now,
        conflict: (conflict) => deps.onConflict(this.conflicts.add(conflict, now())),
      },
      transport: deps.transport,
      pausedFor: () => this.pausedFor(),
      pause: (reason) => {
        deps.settings.set(PAUSE_KEY, reason);
        this.#summary();
      },
      nowMs: this.#nowMs,
      random: deps.random ?? Math.random,
      onChange: (chain) => {
        if (chain.startsWith('quiz:')) {
          const attempt = this.quizzes.attempt(chain.slice('quiz:'.length));
          if (attempt) deps.onQuizAttempt(attempt);
        } else {
          const view = this.sessions.view(chain);
          if (view) deps.onSession(view);
        }
        this.#summary();
      },
      log: deps.log,
    });
    this.quiz = new QuizService({
      db: deps.db,
      guides: deps.guides,
      quizzes: this.quizzes,
      outbox: this.outbox,
      now,
      actedAt: () => Math.floor(this.#nowMs() / 1000 + this.#offset),
      onAttempt: (attempt) => {
        deps.onQuizAttempt(attempt);
        this.#summary();
      },
      kick: () => this.runner.kick(),
    });
  }

  /** The site's clock minus ours, from the Date of its answers: actions carry the site's time. */
  observeServerTime(serverSeconds: number): void {
    const offset = serverSeconds - this.#nowMs() / 1000;
    // Date has a one-second resolution: only a real drift is worth remembering.
    if (Math.abs(offset - this.#offset) >= 2) {
      this.#offset = Math.round(offset);
      this.deps.settings.set(OFFSET_KEY, this.#offset);
    }
  }

  pausedFor(): OutboxSummary['pausedFor'] {
    return this.deps.settings.get(PAUSE_KEY, z.literal('unauthorized')) ?? null;
  }

  /** Signed in again: the outbox goes on. */
  resume(): void {
    this.deps.settings.delete(PAUSE_KEY);
    this.#summary();
    this.runner.kick();
  }

  summary(): OutboxSummary {
    return this.outbox.summary(this.pausedFor());
  }

  view(): OutboxView {
    // Step data is named by the step's number in the guide the session follows, not by its id.
    const numbers = new Map<string, Map<number, number>>();
    const stepNumber = (sessionId: string, stepid: number): number | undefined => {
      if (!numbers.has(sessionId)) {
        const state = this.sessions.state(sessionId);
        const guide = state ? this.deps.guides.getDetail(state.guideid) : undefined;
        numbers.set(sessionId, new Map((guide?.steps ?? []).map((step, index) => [step.stepid, index + 1])));
      }
      return numbers.get(sessionId)!.get(stepid);
    };
    return { summary: this.summary(), actions: this.outbox.all().map((row) => describe(row, stepNumber)) };
  }

  /** "Send now": waiting actions go at once, whatever their backoff said. */
  async flush(): Promise<OutboxSummary> {
    this.deps.db.prepare("UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'").run();
    await this.runner.drain();
    return this.summary();
  }

  retry(actionId: number): OutboxView {
    if (!this.outbox.retry(actionId)) throw new AppFailure('not_found', 'There is no failed action with that id.', { actionId });
    this.#summary();
    this.runner.kick();
    return this.view();
  }

  /** Drops a failed action; what it would have sent stays in the session (and in a conflict record). */
  discard(actionId: number): OutboxView {
    const row = this.outbox.get(actionId);
    if (!row || row.state !== 'failed') throw new AppFailure('not_found', 'Only a failed action can be discarded.', { actionId });
    this.outbox.remove(actionId);
    const view = this.sessions.view(row.chain);
    if (view) this.deps.onSession(view);
    this.#summary();
    this.runner.kick();
    return this.view();
  }

  async suspended(guideid: number, transport: ApiTransport): Promise<WorkSession[]> {
    try {
      const results = await suspendedEntries(transport, guideid);
      const title = this.deps.guides.getListItem(guideid)?.title ?? `Guide ${guideid}`;
      return results.map((entry) => previewOf(entry, title));
    } catch (error) {
      throw error instanceof ApiError ? toAppFailure(error) : error;
    }
  }

  /** Takes over a session another technician suspended: stored locally, the `assume` queued. */
  async assume(entryid: number, transport: ApiTransport): Promise<WorkSession> {
    const known = this.sessions.byEntry(entryid);
    if (known) return this.work.transition(known.id, 'assume');
    const entry = await this.#fetchEntry(entryid, transport);
    if (entry.status !== 'suspended') throw new AppFailure('invalid_transition', `This session is ${entry.status}, not suspended: it cannot be taken over.`);
    return this.work.transition(this.#store(entry), 'assume');
  }

  /** Continues here a session of yours that the site knows (started on another computer). */
  async open(entryid: number, transport: ApiTransport): Promise<WorkSession> {
    const known = this.sessions.byEntry(entryid);
    if (known) return this.work.view(known.id);
    const entry = await this.#fetchEntry(entryid, transport);
    if (isEnded(entry.status)) {
      throw new AppFailure('invalid_transition', `This session is ${entry.status}: there is nothing left to do in it.`);
    }
    if (entry.userid !== this.deps.userid()) throw new AppFailure('forbidden', 'This session belongs to another technician: take it over once it is suspended.');
    const id = this.#store(entry);
    const view = this.work.view(id);
    this.deps.onSession(view);
    return view;
  }

  async #fetchEntry(entryid: number, transport: ApiTransport): Promise<SiteEntry> {
    try {
      return await getEntry(transport, entryid);
    } catch (error) {
      throw error instanceof ApiError ? toAppFailure(error) : error;
    }
  }

  /** Stores a site's entry as a local session, with the site's values as confirmed values. */
  #store(entry: SiteEntry): string {
    const guide = this.deps.guides.getDetail(entry.guideid);
    if (!guide) throw new AppFailure('not_found', 'Sync the guide of this session before working on it here.', { guideid: entry.guideid });
    const id = crypto.randomUUID();
    const now = Math.floor(this.#nowMs() / 1000);
    this.deps.db.transaction(() => {
      this.sessions.insert({
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
        pausedAt: entry.status === 'paused' || entry.status === 'suspended' ? now : null,
        pauseSeconds: entry.pauseSeconds,
        activeStepid: entry.activeStepid,
        now,
      });
      this.deps.guides.pin(guide.guideid, guide.revisionid, `session:${id}`);
      const fields = new Map(guide.steps.flatMap((s) => (s.form ? s.form.fields.map((f) => [f.fieldGuid, { f, stepid: s.stepid }] as const) : [])));
      for (const [guid, value] of theirValues(this.deps.guides, entry.guideid, entry)) {
        const field = fields.get(guid);
        if (field) this.sessions.setServerValue(id, guid, value, true, { fieldRevisionid: field.f.fieldRevisionid, stepid: field.stepid });
      }
    })();
    return id;
  }

  /** Another site: its sessions (all sent, all settled: see the guard in services.ts) are forgotten. */
  forgetSessions(): void {
    this.deps.db.transaction(() => {
      for (const table of ['outbox', 'conflicts', 'attachments', 'work_values', 'work_sessions', 'quiz_attempts']) this.deps.db.prepare(`DELETE FROM ${table}`).run();
    })();
    fs.rmSync(path.join(this.deps.dataDir, 'attachments'), { recursive: true, force: true });
    fs.mkdirSync(path.join(this.deps.dataDir, 'attachments'), { recursive: true });
    this.#summary();
  }

  openConflicts(): ConflictRecord[] {
    return this.conflicts.open();
  }

  /** Keep mine: the value is saved again against the site's current one. Keep theirs: the site's value stays. */
  settle(conflictId: number, keep: 'mine' | 'theirs'): ConflictRecord[] {
    const conflict = this.conflicts.get(conflictId);
    if (!conflict) throw new AppFailure('not_found', 'There is no such conflict.', { conflictId });
    const session = this.sessions.state(conflict.sessionId);
    const editable = session && isEditable(session.status);
    if (conflict.kind === 'field' && conflict.fieldGuid && conflict.stepid !== null && session) {
      if (keep === 'mine' && editable && conflict.label !== 'Field removed from the form') {
        this.work.saveStepData({ sessionId: session.id, stepid: conflict.stepid, values: [{ fieldGuid: conflict.fieldGuid, value: conflict.mine }] });
      } else if (keep === 'theirs') {
        const current = this.sessions.values(session.id).find((v) => v.fieldGuid === conflict.fieldGuid);
        if (current) this.sessions.setValue(session.id, { ...current, value: conflict.theirs });
      }
    }
    this.conflicts.settle(conflictId, keep, Math.floor(this.#nowMs() / 1000));
    if (session) {
      const view = this.sessions.view(session.id);
      if (view) this.deps.onSession(view);
    }
    this.#summary();
    return this.conflicts.open();
  }

  #summary(): void {
    this.deps.onSummary(this.summary());
  }
}

function describe(row: OutboxRow, stepNumber: (sessionId: string, stepid: number) => number | undefined): OutboxAction {
  let summary = KIND_WORDS[row.kind] ?? row.kind;
  if (row.kind === 'stepData') {
    try {
      const payload = JSON.parse(row.payload) as { stepid?: number; fields?: unknown[] };
      const number = payload.stepid === undefined ? undefined : stepNumber(row.chain, payload.stepid);
      summary = `Save step ${number ?? '?'} (${payload.fields?.length ?? 0} field${payload.fields?.length === 1 ? '' : 's'})`;
    } catch {
      summary = 'Save step data (unreadable)';
    }
  }
  return {
    id: row.id,
    sessionId: row.chain,
    kind: row.kind as OutboxAction['kind'],
    summary,
    actedAt: row.actedAt,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' && row.nextAttemptAt > 0 ? Math.ceil(row.nextAttemptAt / 1000) : null,
    error: row.lastError,
  };
}

function previewOf(entry: SiteEntry, guideTitle: string): WorkSession {
  return {
    id: `entry:${entry.entryid}`,
    entryid: entry.entryid,
    guideid: entry.guideid,
    guideRevisionid: entry.guideRevisionid ?? 0,
    guideTitle,
    workorderid: entry.workorderid,
    userid: entry.userid,
    status: entry.status,
    startedAt: entry.startedAt,
    endedAt: entry.endedAt,
    pausedAt: null,
    pauseSeconds: entry.pauseSeconds,
    activeStepid: entry.activeStepid,
    values: [],
    pendingActions: 0,
    failedActions: 0,
    openConflicts: 0,
  };
}
