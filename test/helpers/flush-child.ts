// A technician's first minutes in a process of its own, whose disk flushes are noted (slow-disk.ts, preloaded
// by the parent): signs in to a demo site, syncs, then opens a guide as the guide page does (its pictures
// served), starts a work session on it (its answer marked in the log) and syncs again. Prints JSON: the
// flushes of each of those three.
import { createServices } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite } from '../../server/site.ts';
import { mediaOf, unwrap } from './library.ts';
import { flushesSince, markFlushLog } from './slow-disk.ts';

const [dataDir, log] = process.argv.slice(2);
if (!dataDir || !log) throw new Error('usage: flush-child.ts <dataDir> <flush log>');
/** A few turns for what a call left to do after its answer (a write at the end of the turn, a flush on the pool). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 200));

const site = await startDemoSite({});
const services = createServices({
  dataDir,
  version: '0.0.0-test',
  secretCodec: plainCodec,
  startDemoWorkshop: () => Promise.reject(new Error('no demo workshop here')),
  autoSync: false,
});
const { api } = services;
const { email, password } = DEMO_ACCOUNTS.tech1;
unwrap(await api.signIn({ siteUrl: site.url, email, password }));
await settled();
let from = flushesSince(log, dataDir, 0).end;
if (unwrap(await api.syncNow()).status !== 'complete') throw new Error('the sync did not complete');
const guideid = 2;
await settled();
const first = flushesSince(log, dataDir, from);
from = first.end;

// The guide page: the guide, "recently used", what changed since the last read, then each of its pictures.
const guide = unwrap(await api.getGuide(guideid));
unwrap(await api.noteGuideOpened(guideid));
unwrap(await api.guideChanges(guideid));
const pictures = mediaOf(guide);
const served = pictures.filter((url) => services.resolveMedia(url) !== null).length;
await settled();
const open = flushesSince(log, dataDir, from);
from = open.end;

const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-FLUSHES' }));
markFlushLog(log, 'started');
await settled();
const start = flushesSince(log, dataDir, from);
from = start.end;

if (unwrap(await api.syncNow()).status !== 'complete') throw new Error('the second sync did not complete');
await settled();
const resync = flushesSince(log, dataDir, from);
from = resync.end;

// The site goes away (its port closed): a pause, and the outbox's try of it, refused by the network.
await site.close();
unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
unwrap(await api.flushOutbox());
await settled();
const away = flushesSince(log, dataDir, from);

console.log(
  JSON.stringify({
    first: first.flushes,
    served,
    open: open.flushes,
    start: start.flushes,
    resync: resync.flushes,
    away: away.flushes,
  }),
);
await services.close();
