// How the features are started, stopped and told of a new site: the composition root's helpers (services.ts).
import type { Http } from './api/http.ts';
import type { SiteHooks } from './connection/connection-methods.ts';
import type { Connection } from './connection/connection.ts';
import type { Credentials } from './connection/credentials.ts';
import type { DemoLauncher } from './connection/demo-launcher.ts';
import type { Technicians } from './connection/technicians.ts';
import { markDamaged, type OpenedFolder } from './db/data-folder.ts';
import type { Store } from './db/store.ts';
import type { StorageGuard } from './invoke.ts';
import type { LibraryService, SiteSearchModule } from './library/library-service.ts';
import type { Outbox, OutboxDeps } from './outbox/outbox.ts';
import type { BackgroundSync } from './sync/background.ts';
import type { UploadEndpoint } from './api/user-media-api.ts';
import { SiteModules } from './sync/site-modules.ts';
import type { SyncService, SyncServiceDeps } from './sync/sync-service.ts';
import type { MarksService } from './marks/marks-service.ts';
import { KeptFiles } from './worklog/kept-files.ts';
import type { Unwatched } from './worklog/unwatched.ts';
import { worklogOutbox } from './worklog/replay/index.ts';
import { WorkLog, type WorkLogDeps } from './worklog/worklog.ts';

/**
 * Starting (the site asked who we are, the outbox and a sync set
 * going) and closing, in order: the data folder's lock last.
 */
export function lifecycle(f: {
  connection: Connection;
  demo: DemoLauncher;
  outbox: Outbox;
  background: BackgroundSync;
  sync: SyncService;
  keptFiles: KeptFiles;
  /** Notes that Fieldguide runs (worklog/unwatched.ts): from the start, a last time as it closes. */
  unwatched: Pick<Unwatched, 'start' | 'stop'>;
  /** The data folder: its reserve's watch ended first, its store closed, its lock let go last. */
  folder: Pick<OpenedFolder, 'store' | 'lock' | 'reserve'>;
  log: (message: string) => void;
}): { start(): Promise<void>; close(): Promise<void> } {
  return {
    async start() {
      f.unwatched.start();
      try {
        const online = await f.connection.reconnect(f.demo);
        // Work of technicians whose sign-in is kept goes even when nobody works now.
        f.outbox.kick();
        if (online) f.background.run('start');
      } catch (error) {
        f.log(`Start-up refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Files an earlier version kept that the work no longer needs, in the background (it never throws).
      void f.keptFiles.considerAll();
    },
    async close() {
      f.folder.reserve.stop();
      f.background.close();
      f.connection.close();
      f.sync.cancel();
      await f.sync.idle();
      await f.outbox.close();
      await f.keptFiles.close();
      f.unwatched.stop();
      await f.demo.close();
      f.folder.store.close();
      f.folder.lock.release();
    },
  };
}

/**
 * What connecting means to the features: a switch of site waits for the outbox, then forgets the previous
 * site's work and technicians; any sign-in (a switch of technician too) lets the outbox go on.
 */
export function siteHooks(f: {
  sync: SyncService;
  library: LibraryService;
  worklog: WorkLog;
  outbox: Outbox;
  background: BackgroundSync;
  modules: SiteModules;
  forgetOtherTechnicians: () => void;
}): SiteHooks {
  return {
    unsettled: () => f.outbox.unsettled(),
    siteChanged: () => {
      f.sync.reset();
      f.library.reset();
      f.worklog.forget();
      f.forgetOtherTechnicians();
    },
    // On connecting, the site is asked again what it offers (by the sync that starts now).
    siteConnected: () => f.modules.invalidate(),
    connected: () => {
      // What the site said only members get (heard while nobody's sign-in worked) is asked again now.
      f.modules.signedIn();
      f.outbox.resume();
      f.background.run('connect');
    },
    signingOut: () => {
      f.sync.cancel();
      // Their work stays, waiting for them: the counts shown change from theirs to nobody's.
      queueMicrotask(() => f.outbox.changed());
    },
  };
}

/**
 * The single token of the version before technicians goes to the
 * technician it belonged to (if the site had not refused it).
 */
export function adoptEarlierToken(credentials: Credentials, technicians: Technicians, dataDir: string): void {
  const id = technicians.currentIdSetting();
  const row = id === null ? undefined : technicians.get(id);
  credentials.adoptEarlierToken(dataDir, row && row.refusedAt === null ? row.id : null);
}

/** The site's search as the library asks after it: a module of the site (sync/site-modules.ts). */
export function searchModule(modules: SiteModules, signedIn: () => boolean): SiteSearchModule {
  return {
    offers: () => modules.offers('search', signedIn()),
    via: () => modules.via('search'),
    answeredAt: (via) => modules.answeredAt('search', via),
    lacks: (status) => modules.lacks('search', status),
  };
}

/** Coming back online syncs and wakes every waiting chain of the outbox at once. */
export function wakeOnReconnect(connection: Connection, background: BackgroundSync, outbox: Outbox): void {
  connection.onOnline(() => {
    background.run('reconnect');
    outbox.wake();
  });
}

/**
 * How the outbox reaches the site: each technician's work with their own sign-in, to the connection's site;
 * a request with no answer tells the watch, and "Send now" asks a site thought away afresh.
 */
export function outboxSite(
  connection: Connection,
  technicians: Technicians,
): Pick<OutboxDeps, 'transportFor' | 'sendable' | 'refused' | 'others' | 'onNoAnswer' | 'askAfresh'> {
  return {
    transportFor: (id) => technicians.transportFor(id),
    sendable: () => technicians.sendable(connection.site),
    refused: (id) => connection.refused(id),
    others: () => technicians.othersWork(connection.site),
    onNoAnswer: () => connection.noAnswer(),
    askAfresh: () => connection.askAfresh(),
  };
}

/** Which of the site's upload endpoints answers, as the site's modules learned it. */
export function uploadEndpoint(modules: SiteModules): UploadEndpoint {
  return { via: () => modules.via('user_media'), answeredAt: (via) => modules.answeredAt('user_media', via) };
}

/**
 * The work log, its kinds of action registered with the outbox, and what keeps its attachments folder to
 * what the work needs (worklog/kept-files.ts).
 */
export function worklogOf(
  d: Omit<WorkLogDeps, 'keptFiles' | 'outbox'> & { outbox: Outbox; uploads: UploadEndpoint; log: (m: string) => void },
): { worklog: WorkLog; keptFiles: KeptFiles } {
  const { store, events, attachmentsDir, uploads } = d;
  const keptFiles = new KeptFiles({ store, attachmentsDir, log: d.log });
  const current = () => d.technician()?.id ?? null;
  d.outbox.register(worklogOutbox({ store, events, attachmentsDir, keptFiles, uploads, current, now: d.clock.now }));
  const picturesOnly = () => uploads.via() === 'images';
  return { worklog: new WorkLog({ ...d, keptFiles, picturesOnly }), keptFiles };
}

/** HTTP, counting the requests made (a sync reports what it cost). */
export function countingHttp(base: Http): { http: Http; count: () => number } {
  let requests = 0;
  return {
    http: (url, init) => {
      requests++;
      return base(url, init);
    },
    count: () => requests,
  };
}

/**
 * What the dispatcher does with a storage failure: on a full disk the reserve is given back once so work
 * actions still go in (then the call is tried again), and the screens are told, and told again once it is
 * made again. A damage is looked for: the pictures database in
 * full, set aside and made again at once when it is the damaged one (`repairPictures`); else the main
 * database, marked to be repaired at the next start only when its check finds damage, so a restart is
 * never asked for that would repair nothing.
 */
export function storageGuard(
  folder: OpenedFolder,
  dataDir: string,
  log: (message: string) => void,
  on: { repairPictures: () => boolean; outbox: Pick<Outbox, 'changed' | 'roomAgain'> },
): StorageGuard {
  const { repairPictures, outbox } = on;
  // A reserve given back (a full disk, at this start or since) is said on the screens until it is made again.
  const back = () => {
    log('There is room on the disk again: Fieldguide keeps its reserve for your work again.');
    outbox.roomAgain();
  };
  folder.reserve.watch(back);
  return {
    full: () => {
      const released = folder.reserve.release();
      if (released) {
        log('The disk is full: Fieldguide gave back its reserve so your work can still be saved. Free some space.');
        outbox.changed();
        folder.reserve.watch(back);
      }
      return released;
    },
    refused: () => {
      if (!folder.reserve.refused()) return;
      log('The disk is full and the reserve is used up: work is refused until there is room. Free some space.');
      outbox.changed();
    },
    damaged: (error) => {
      const said = error instanceof Error ? error.message : String(error);
      if (repairPictures()) return 'repaired';
      const found = folder.store.mainDamage();
      if (found === null) {
        log(`The database reported damage while running (${said}), but a full check found none.`);
        return 'none';
      }
      markDamaged(dataDir, error);
      const next = 'it is checked and repaired at the next start';
      log(`The database reported damage while running: ${said} (${found}); ${next}.`);
      return 'restart';
    },
    // Said on the screens at once: not "Disk full… free some space" (the replay's hold), nor nothing.
    failed: (error) => {
      folder.store.failDisk(error);
      outbox.changed();
    },
    settle: (walOwed) => folder.store.settle(walOwed),
    deferFlushes: (fn) => folder.store.deferFlushes(fn),
  };
}

/**
 * A part built after parts that need it (services.ts): set once, right after it is built. Asked before,
 * it says so, instead of a closure meeting a variable not yet declared.
 */
export function lateBound<T>(name: string): { get(): T; set(value: T): void } {
  let bound: { value: T } | null = null;
  return {
    get() {
      if (!bound) throw new Error(`${name} was asked for before it was built.`);
      return bound.value;
    },
    set(value) {
      if (bound) throw new Error(`${name} is set once only.`);
      bound = { value };
    },
  };
}

/** What the connection's site offers (sync/site-modules.ts), learned and kept per site. */
export function siteModulesOf(store: Store, now: () => number, site: { get(): Connection }): SiteModules {
  return new SiteModules({
    repo: store.siteModules,
    site: () => site.get().site?.url ?? null,
    now,
    changed: () => site.get().changed(),
  });
}

/**
 * What each sync reads besides the library, for the technician who works when it starts: their marks, and
 * their sessions handed over and running as the site has them now (worklog/site-look.ts); and what it tells:
 * the guides it stored, to the sessions open of them.
 */
export function syncReads(
  marks: MarksService,
  worklog: WorkLog,
): Pick<SyncServiceDeps, 'marks' | 'siteLookFor' | 'guidesStored'> {
  return {
    marks: { pullFor: () => marks.pullFor(), kept: () => marks.kept() },
    siteLookFor: () => worklog.siteLookFor(),
    guidesStored: (guideids) => worklog.guidesStored(guideids),
  };
}
