import './threadpool.ts';
import path from 'node:path';
import type { AppApi, Result } from '../contract.ts';
import { apiOf, bindMethods } from './app-methods.ts';
import { siteHttp, type Http } from './api/http.ts';
import { Connection } from './connection/connection.ts';
import { Credentials } from './connection/credentials.ts';
import { DemoLauncher, type DemoSite } from './connection/demo-launcher.ts';
import type { SecretCodec } from './connection/secret-store.ts';
import { ServerClock } from './connection/server-clock.ts';
import { technicianKey, Technicians } from './connection/technicians.ts';
import { lastRepair, openDataFolder } from './db/data-folder.ts';
import { EventHub } from './events.ts';
import { guideNotes } from './guide-notes.ts';
import { dispatcher } from './invoke.ts';
import { LibraryService, type StoredMediaContent } from './library/library-service.ts';
import { mediaDirOf } from './library/media-store.ts';
import { marksOutbox } from './marks/marks-outbox.ts';
import { MarksService } from './marks/marks-service.ts';
import type { MediaAnswer, MediaRequest } from './library/media-serving.ts';
import { Outbox } from './outbox/outbox.ts';
import type { OutboxTimer } from './outbox/outbox-timer.ts';
import { quizOutbox } from './quiz/quiz-outbox.ts';
import { QuizService } from './quiz/quiz-service.ts';
import { BackgroundSync } from './sync/background.ts';
import { SyncService } from './sync/sync-service.ts';
import {
  adoptEarlierToken,
  countingHttp,
  lateBound,
  lifecycle,
  outboxSite,
  searchModule,
  siteModulesOf,
  siteHooks,
  storageGuard,
  syncReads,
  uploadEndpoint,
  wakeOnReconnect,
  worklogOf,
} from './wiring.ts';

// The one door of the core: the shells import this file and nothing deeper (the import rules check it),
// so what they need of the core besides createServices is handed on here.
export { plainCodec, type SecretCodec } from './connection/secret-store.ts';
export { defaultKeyFile, keyFileCodec } from './connection/key-file-codec.ts';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './security/csp.ts';
export { mediaHeaders } from './library/media-types.ts';
export { FolderInUseError, StartupError } from './db/folder-lock.ts';
export { APP_METHODS, policiesOf } from './app-methods.ts';
export type { DemoSite, MediaAnswer, MediaRequest, StoredMediaContent };

export interface ServicesDeps {
  /** The app's data folder: database, each technician's sealed sign-in, media. */
  dataDir: string;
  version: string;
  /** How each technician's token is sealed at rest (safeStorage in Electron). */
  secretCodec: SecretCodec;
  /** Starts the built-in demo workshop; both shells pass the reference server's `startDemoWorkshop`. */
  startDemoWorkshop: (dataDir: string) => Promise<DemoSite>;
  nativeBinding?: string;
  /** How requests go out (api/http.ts); tests wrap the app's own to watch or redirect them. */
  http?: Http;
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
  /** A monotonic clock in milliseconds that shows jumps of `clock` (tests move both); default performance.now. */
  monotonic?: () => number;
  /** Disk the media budget never takes, kept for the technician's work; default 200 MB (library-service.ts). */
  diskReserveBytes?: number;
  /** How the outbox waits for its next due action; tests pass one that runs on their simulated `clock`. */
  outboxTimer?: OutboxTimer;
  /** How often a running Fieldguide notes that it runs (worklog/unwatched.ts); default a minute. */
  aliveEveryMs?: number;
  /** Seconds since the computer started, sleep included; default os.uptime (tests move it with `clock`). */
  uptime?: () => number;
}

export interface Services {
  /** The App API, every argument validated, every failure a Result. */
  api: AppApi;
  /** The same, by method name: what both shells call with untrusted arguments. */
  invoke(method: string, args: unknown): Promise<Result<unknown>>;
  events: EventHub;
  /** The stored file of a media URL (inside the media folder only). */
  resolveMedia(url: string): StoredMediaContent | null;
  /**
   * What the shells' media routes answer for an address (contract: MEDIA_ROUTE and its parameters): the
   * stored copy, the site's when the address allows it, or a stored alternative; null is a 404.
   */
  openMedia(request: MediaRequest): Promise<MediaAnswer | null>;
  /** Background work after construction (refreshing the signed-in user, a first sync); never throws. */
  start(): Promise<void>;
  /** The shell's own network hint (Electron's `net.isOnline()` changes). */
  setNetworkHint(online: boolean): void;
  close(): Promise<void>;
}

/** The services options the work log takes (worklog.ts). */
const worklogOptions = ({ aliveEveryMs, uptime }: ServicesDeps) => ({ aliveEveryMs, uptime });

/**
 * The composition root: builds each feature once, in the order they need each other, and joins their App API methods.
 */
export function createServices(deps: ServicesDeps): Services {
  const log = deps.log ?? (() => {});
  const { dataDir } = deps;
  const [mediaDir, attachmentsDir] = [mediaDirOf(dataDir), path.join(dataDir, 'attachments')];
  // One copy per data folder, checked and salvaged before anything reads it (db/data-folder.ts).
  const folder = openDataFolder({
    dataDir,
    picturesFile: path.join(mediaDir, 'pictures.sqlite'),
    nativeBinding: deps.nativeBinding,
    log,
    now: () => Date.now(),
  });
  const { store } = folder;
  const events = new EventHub();
  const clock = new ServerClock(store.settings, deps.clock, deps.monotonic);
  const requests = countingHttp(deps.http ?? siteHttp);
  const credentials = new Credentials(dataDir, deps.secretCodec);
  // The start-up's one loop, made explicit: each technician's transport is made for the connection's site,
  // and the site's modules are its, while the connection asks both. Set once, right after it is built.
  const site = lateBound<Connection>('the connection');
  const technicians = new Technicians({
    repo: store.technicians,
    settings: store.settings,
    credentials,
    transportWith: (token) => site.get().transportWith(token),
    now: clock.now,
  });
  adoptEarlierToken(credentials, technicians, dataDir);
  const demo = new DemoLauncher(deps.startDemoWorkshop, dataDir);
  const modules = siteModulesOf(store, clock.now, site);
  const connection = new Connection({
    settings: store.settings,
    technicians,
    version: deps.version,
    events,
    capabilities: () => modules.capabilities(),
    http: requests.http,
    probeHttp: deps.http ?? siteHttp,
    onServerTime: clock.observe,
    siteClockOffset: () => clock.offset(),
    timeoutMs: deps.requestTimeoutMs,
    demoPassword: () => demo.password(),
  });
  site.set(connection);
  // A window counts running sessions on the site's clock: it is told when that clock's offset moves.
  clock.onOffset(() => connection.changed());
  // A feature's request with no answer: the site is asked at once (connection/reachability.ts).
  const [transport, offline, now] = [() => connection.transport(), () => connection.noAnswer(), clock.now];
  // What a screen waits for (a guide read from the site, its search, the site's sessions) goes on the
  // front lane, beside a running sync's connections (api/http.ts); the sync and the outbox do not.
  const front = () => transport().front();
  // Who works now: what they do is recorded under their name, and what they may not read stays hidden.
  const current = () => technicians.current(connection.site);
  const reader = () => technicians.readerOf(current());
  const who = () => ((row) => (row ? technicianKey(row) : `${connection.site?.url ?? ''}|public`))(current());
  const library = new LibraryService({
    store,
    mediaDir,
    transport: front,
    online: () => connection.network !== 'offline',
    reader,
    onNetworkError: offline,
    log,
    now,
    reserveBytes: deps.diskReserveBytes,
    who,
    search: searchModule(modules, () => connection.user !== null),
  });
  const outbox = new Outbox({
    store,
    events,
    nowMs: clock.nowMs,
    clock,
    log,
    ...(deps.outboxTimer ? { timer: deps.outboxTimer } : {}),
    ...outboxSite(connection, technicians),
    current: () => current()?.id ?? null,
    reserve: folder.reserve,
  });
  const me = () => ((row) => (row ? { id: row.id, userid: row.userid } : null))(current());
  // Each feature's kinds of action: the outbox knows none of its own.
  const work = { store, events, clock, outbox, attachmentsDir, technician: me, reader, log, ...worklogOptions(deps) };
  const { worklog, keptFiles } = worklogOf({ ...work, uploads: uploadEndpoint(modules) });
  outbox.register(quizOutbox({ store, events }));
  outbox.register(marksOutbox({ store }));
  const marks = new MarksService({ store, outbox, clock, technician: () => me()?.id ?? null, reader, library });
  const sync = new SyncService({
    store,
    library,
    transport,
    reader,
    requestCount: requests.count,
    modules,
    signedIn: () => connection.user !== null,
    events,
    onNetworkError: offline,
    now,
    siteNow: () => clock.siteNow(),
    concurrency: deps.concurrency,
    repair: () => lastRepair(store),
    allowedMedia: () => connection.site?.mediaOrigins ?? [],
    ...syncReads(marks, worklog),
  });
  const background = new BackgroundSync({
    sync,
    enabled: deps.autoSync ?? true,
    signedIn: () => connection.canSync,
    everyMinutes: deps.syncEveryMinutes ?? 15,
    log,
    guidesDue: () => store.syncQueue.failedDue(clock.now()),
  });
  const quiz = new QuizService({ store, events, clock, outbox, technician: () => me()?.id ?? null, reader });
  const notes = guideNotes({ store, clock, outbox, modules, reader, now, technician: () => me()?.id ?? null });
  wakeOnReconnect(connection, background, outbox);

  const hooks = siteHooks({
    sync,
    library,
    worklog,
    outbox,
    background,
    modules,
    forgetOtherTechnicians: () => connection.site && technicians.forgetOtherSites(connection.site),
  });
  const methods = bindMethods({
    connection: { connection, demo, hooks },
    technicians: { connection, technicians, hooks },
    library: { library, languageChosen: () => background.run('language') },
    sync: { sync, library, background },
    worklog: { worklog, transport: front },
    outbox,
    quiz,
    marks,
    ...notes,
  });
  const invoke = dispatcher(methods, {
    log,
    guard: storageGuard(folder, dataDir, log, { repairPictures: () => library.repairPictures(), outbox }),
    signedIn: () => current() !== null,
  });
  return {
    api: apiOf(invoke),
    invoke,
    events,
    resolveMedia: (url) => library.resolveMedia(url),
    openMedia: (request) => library.openMedia(request),
    setNetworkHint: (online) => connection.hint(online),
    ...lifecycle({ connection, demo, outbox, background, sync, keptFiles, folder, log, unwatched: worklog.unwatched }),
  };
}
