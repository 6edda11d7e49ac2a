import fs from 'node:fs';
import path from 'node:path';
import { APP_METHODS, type AppApi, type AppMethod, type AppStatus, type Result, type SiteInfo } from '../contract.ts';
import { openDatabase, type Db } from './db/open.ts';
import { SettingsRepo } from './db/repos/settings-repo.ts';
import { EventHub } from './events.ts';
import { LibraryService, mediaDirOf, type StoredMediaContent } from './library/library-service.ts';
import { methodInputs } from './method-inputs.ts';
import { OutboxService } from './outbox/outbox.ts';
import { AppFailure, ok } from './result.ts';
import { Connection } from './connection/connection.ts';
import { FileSecretStore, type SecretCodec } from './connection/secret-store.ts';
import { normalizeSiteUrl } from './connection/site-url.ts';

/** A running demo workshop: the reference server on a loopback port, started by the shell. */
export interface DemoSite {
  /** The site's address (no `/api/2.0`). */
  url: string;
  /** The technician account the demo signs in with. */
  account: { email: string; password: string };
  close(): Promise<void>;
}

export interface ServicesDeps {
  /** The app's data folder: database, sealed token, media. */
  dataDir: string;
  version: string;
  /** How the token is sealed at rest (safeStorage in Electron). */
  secretCodec: SecretCodec;
  /** Starts the built-in demo workshop; both shells pass the reference server's `startDemoWorkshop`. */
  startDemoWorkshop: (dataDir: string) => Promise<DemoSite>;
  nativeBinding?: string;
  fetch?: typeof fetch;
  /** Where problems that are not the technician's to act on are reported; never given a token. */
  log?: (message: string) => void;
  /** Sync on connect, on reconnect, at start and every `syncEveryMinutes` (default true, 15). */
  autoSync?: boolean;
  syncEveryMinutes?: number;
  concurrency?: { guides: number; media: number };
  /** Time limit of one request (and of each gap in a download); default 20 s. */
  requestTimeoutMs?: number;
  /** The local clock in milliseconds (tests move it); default Date.now. */
  clock?: () => number;
}

export interface Services {
  /** The App API, every argument validated, every failure a Result. */
  api: AppApi;
  /** The same, by method name: what both shells call with untrusted arguments. */
  invoke(method: string, args: unknown): Promise<Result<unknown>>;
  events: EventHub;
  /** The stored file of a media URL, for the shells' media routes (inside the media folder only). */
  resolveMedia(url: string): StoredMediaContent | null;
  /** Background work after construction (refreshing the signed-in user, a first sync); never throws. */
  start(): Promise<void>;
  /** The shell's own network hint (Electron's `net.isOnline()` changes). */
  setNetworkHint(online: boolean): void;
  close(): Promise<void>;
}

/** The demo workshop is one site whatever port it runs on; other sites are their address. */
const sameSite = (a: SiteInfo, b: SiteInfo): boolean => (a.demo || b.demo ? a.demo === b.demo : a.url === b.url);

export function createServices(deps: ServicesDeps): Services {
  const log = deps.log ?? (() => {});
  fs.mkdirSync(deps.dataDir, { recursive: true });
  const dbFile = path.join(deps.dataDir, 'fieldguide.sqlite');
  const db: Db = openDatabase(dbFile, { ...(deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}) });
  const events = new EventHub();
  const settings = new SettingsRepo(db, (key, problem) => log(`Setting "${key}" could not be read (${problem}); using the default.`));
  const secrets = new FileSecretStore(path.join(deps.dataDir, 'token.sealed'), deps.secretCodec);
  const autoSync = deps.autoSync ?? true;
  let demo: DemoSite | null = null;
  let requests = 0;
  const baseFetch = deps.fetch ?? globalThis.fetch;
  const countingFetch: typeof fetch = (input, init) => {
    requests++;
    return baseFetch(input, init);
  };

  // The connection's callbacks reach the outbox, which needs the library, which needs the connection.
  let work: OutboxService | undefined;
  const status = (): AppStatus => ({
    version: deps.version,
    site: connection.site,
    user: connection.user,
    network: connection.network,
  });
  const connection = new Connection({
    settings,
    secrets,
    fetch: countingFetch,
    ...(deps.requestTimeoutMs ? { timeoutMs: deps.requestTimeoutMs } : {}),
    onServerTime: (seconds) => work?.observeServerTime(seconds),
    onChange: () => events.emit('status', status()),
    onNetwork: (state) => {
      events.emit('network', state);
      events.emit('status', status());
      if (state === 'online') {
        backgroundSync('reconnect');
        work?.runner.kick();
      }
    },
  });
  const library = new LibraryService({
    db,
    dbFile,
    settings,
    mediaDir: mediaDirOf(deps.dataDir),
    transport: () => connection.transport(),
    isAdmin: () => connection.user?.privileges.includes('Admin') ?? false,
    online: () => connection.network !== 'offline',
    requestCount: () => requests,
    onProgress: (progress) => events.emit('syncProgress', progress),
    onState: (state) => events.emit('syncState', state),
    onNetworkError: () => connection.setNetwork('offline'),
    log,
    ...(deps.clock ? { now: () => Math.floor(deps.clock!() / 1000) } : {}),
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
  });

  work = new OutboxService({
    db,
    settings,
    guides: library.guides,
    dataDir: deps.dataDir,
    transport: () => (connection.user ? connection.transport() : null),
    userid: () => connection.user?.userid ?? null,
    onSession: (session) => events.emit('session', session),
    onSummary: (summary) => events.emit('outbox', summary),
    onConflict: (conflict) => events.emit('conflict', conflict),
    onQuizAttempt: (attempt) => events.emit('quizAttempt', attempt),
    log,
    ...(deps.clock ? { nowMs: deps.clock } : {}),
  });
  const outbox = work;

  function backgroundSync(reason: string): void {
    if (!autoSync || !connection.user || library.running) return;
    void library.sync().then(
      (outcome) => {
        if (outcome.error) log(`Sync (${reason}) ended ${outcome.status}: ${outcome.error.resource ?? ''} ${outcome.error.message}`);
      },
      (error: unknown) => log(`Sync (${reason}) could not run: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  const timer = setInterval(() => backgroundSync('schedule'), (deps.syncEveryMinutes ?? 15) * 60_000);
  timer.unref();
  // Whether the site can be reached, asked every half minute: the status bar says "Offline" soon after
  // the network goes, not only when the next sync fails; its return starts a sync and the outbox.
  const heartbeat = setInterval(() => {
    if (connection.user) void connection.refresh().catch(() => undefined);
  }, 30_000);
  heartbeat.unref();

  async function ensureDemo(): Promise<DemoSite> {
    demo ??= await deps.startDemoWorkshop(deps.dataDir);
    return demo;
  }

  /**
   * Work for one site is never replayed to another: switching sites waits until everything is sent and
   * every conflict settled.
   */
  function guardSiteSwitch(target: SiteInfo): void {
    const current = connection.site;
    if (!current || sameSite(current, target)) return;
    const summary = outbox.summary();
    const unsent = summary.pending + summary.inFlight + summary.failed;
    if (unsent > 0 || summary.conflicts > 0) {
      throw new AppFailure(
        'conflict',
        `${unsent} action(s) and ${summary.conflicts} conflict(s) of ${current.demo ? 'the demo workshop' : current.url} are not settled yet. ` +
          'Send them (or settle them) before connecting to another site.',
        { unsent, conflicts: summary.conflicts },
      );
    }
  }

  function resetSite(): void {
    library.reset();
    outbox.forgetSessions();
  }

  /** Connecting to another site starts a new library: guides of two sites never mix. */
  /** After any sign-in: a new site starts a new library; the outbox goes on. */
  async function connected(previous: SiteInfo | null): Promise<Result<AppStatus>> {
    if (previous && connection.site && !sameSite(previous, connection.site)) resetSite();
    outbox.resume();
    backgroundSync('connect');
    return ok(status());
  }

  const impl: AppApi = {
    getStatus: async () => ok(status()),

    connectDemo: async () => {
      guardSiteSwitch({ url: '', demo: true });
      const previous = connection.site;
      const site = await ensureDemo();
      await connection.signIn(site.url, site.account.email, site.account.password, true);
      return connected(previous);
    },

    connectWithToken: async ({ siteUrl, token }) => {
      guardSiteSwitch({ url: normalizeSiteUrl(siteUrl), demo: false });
      const previous = connection.site;
      await connection.connectWithToken(normalizeSiteUrl(siteUrl), token.trim());
      return connected(previous);
    },

    signIn: async ({ siteUrl, email, password }) => {
      guardSiteSwitch({ url: normalizeSiteUrl(siteUrl), demo: false });
      const previous = connection.site;
      await connection.signIn(normalizeSiteUrl(siteUrl), email.trim(), password);
      return connected(previous);
    },

    signOut: async () => {
      library.cancel();
      await connection.signOut();
      return ok(status());
    },

    listGuides: async (query) => ok(library.list(query)),
    getCategories: async () => ok(library.categoryTree()),
    listTags: async () => ok(library.guides.tags()),
    getGuide: async (guideid, revisionid) => ok(library.guide(guideid, revisionid)),
    getQuiz: async (quizRevisionid) => ok(outbox.quiz.quiz(quizRevisionid)),
    search: async (query) => ok(await library.search(query)),

    syncNow: async () => ok(await library.sync()),
    cancelSync: async () => {
      library.cancel();
      return ok(library.state());
    },
    getSyncState: async () => ok(library.state()),
    setOfflineScope: async (scope) => {
      library.setScope(scope);
      backgroundSync('scope');
      return ok(library.state());
    },
    setStorageBudget: async (bytes) => {
      await library.setBudget(bytes);
      return ok(library.state());
    },

    startSession: async (input) => ok(outbox.work.start(input)),
    transitionSession: async ({ sessionId, transition }) => ok(outbox.work.transition(sessionId, transition)),
    saveStepData: async (input) => ok(outbox.work.saveStepData(input)),
    attachFile: async (input) => ok(outbox.work.attach(input)),
    listSessions: async (filter) => ok(outbox.sessions.list(filter).map((id) => outbox.work.view(id))),
    getSession: async (sessionId) => ok(outbox.work.view(sessionId)),
    listSuspended: async (guideid) => ok(await outbox.suspended(guideid, connection.transport())),
    assumeSession: async (entryid) => ok(await outbox.assume(entryid, connection.transport())),
    openSession: async (entryid) => ok(await outbox.open(entryid, connection.transport())),
    getOutbox: async () => ok(outbox.view()),
    flushOutbox: async () => ok(await outbox.flush()),
    retryAction: async (actionId) => ok(outbox.retry(actionId)),
    discardAction: async (actionId) => ok(outbox.discard(actionId)),
    listConflicts: async () => ok(outbox.openConflicts()),
    settleConflict: async ({ conflictId, keep }) => ok(outbox.settle(conflictId, keep)),

    submitQuizAttempt: async (input) => ok(outbox.quiz.submit(input)),
    listQuizAttempts: async ({ quizid }) => ok(outbox.quizzes.attempts(quizid)),
    listQuizzes: async () => ok(outbox.quiz.list()),
  };

  async function invoke(method: string, args: unknown): Promise<Result<unknown>> {
    if (!(APP_METHODS as readonly string[]).includes(method)) {
      return { ok: false, error: { code: 'not_found', message: `No App API method "${method}"` } };
    }
    const name = method as AppMethod;
    const parsed = methodInputs[name].safeParse(args ?? []);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid arguments for ${name}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid'}`,
        },
      };
    }
    try {
      const call = impl[name] as (...a: unknown[]) => Promise<Result<unknown>>;
      return await call(...(parsed.data as unknown[]));
    } catch (error) {
      if (error instanceof AppFailure) return { ok: false, error: error.toAppError() };
      log(`${name} failed unexpectedly: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return { ok: false, error: { code: 'internal', message: 'Something went wrong inside Fieldguide; nothing was lost. Try again.' } };
    }
  }

  const api = Object.fromEntries(APP_METHODS.map((method) => [method, (...args: unknown[]) => invoke(method, args)])) as unknown as AppApi;

  return {
    api,
    invoke,
    events,
    resolveMedia: (url) => library.resolveMedia(url),
    async start() {
      try {
        if (connection.site?.demo) {
          const site = await ensureDemo();
          connection.relocate(site.url);
        }
        await connection.refresh();
        if (connection.network === 'online') {
          backgroundSync('start');
          outbox.runner.kick();
        }
      } catch (error) {
        log(`Start-up refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    setNetworkHint(online) {
      // The OS saying "online" is weak: ask the site itself, which sets the state (and syncs on return).
      if (online) void connection.refresh().catch(() => undefined);
      else connection.setNetwork('offline');
    },
    async close() {
      clearInterval(timer);
      clearInterval(heartbeat);
      library.cancel();
      await library.idle();
      await outbox.runner.close();
      await demo?.close();
      demo = null;
      db.close();
    },
  };
}
