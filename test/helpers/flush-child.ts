// A technician's first minutes in a process of its own, whose disk flushes are noted (slow-disk.ts, preloaded
// by the parent): signs in to a demo site, syncs, then opens a guide as the guide page does (its pictures
// served), starts a work session on it (its answer marked in the log), attaches a photo to it, syncs again,
// changes the settings, and pauses with the site gone. Prints JSON: the flushes of each of those.
import { createServices } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { startDemoSite } from '../../server/site.ts';
import { allLocalGuides, mediaOf, unwrap } from './library.ts';
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
// A first start: the data folder made, its migrations run.
const opened = flushesSince(log, dataDir, 0);
const { email, password } = DEMO_ACCOUNTS.tech1;
unwrap(await api.signIn({ siteUrl: site.url, email, password }));
await settled();
let from = flushesSince(log, dataDir, opened.end).end;
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

// A photo for a step's Image field, in a session of a guide that has one (started first, apart): its file
// is on the disk before the commit that names it.
const photoAt = await (async () => {
  for (const { guideid: id } of await allLocalGuides(api)) {
    for (const step of unwrap(await api.getGuide(id)).steps) {
      const field = step.form?.fields.find((f) => f.type === 'Image');
      if (field) return { guideid: id, stepid: step.stepid, fieldGuid: field.fieldGuid };
    }
  }
  throw new Error('no stored guide has an Image field');
})();
const photoSession = unwrap(await api.startSession({ guideid: photoAt.guideid, workorderid: 'WO-PHOTO' }));
await settled();
from = flushesSince(log, dataDir, from).end;
const photo = encodePng(createCanvas(8, 6, [40, 90, 160])).toString('base64');
const attachInput = { sessionId: photoSession.id, stepid: photoAt.stepid, fieldGuid: photoAt.fieldGuid };
unwrap(await api.attachFile({ ...attachInput, name: 'valve.png', mime: 'image/png', dataBase64: photo }));
markFlushLog(log, 'attached');
await settled();
const attach = flushesSince(log, dataDir, from);
from = attach.end;

if (unwrap(await api.syncNow()).status !== 'complete') throw new Error('the second sync did not complete');
await settled();
const resync = flushesSince(log, dataDir, from);
from = resync.end;

// Settings a technician changes, each answer marked (before the site goes away: the outbox's later tries of
// the refused pause would flush beside them): the window's size, then the picture quality, the
// storage budget, the offline scope and the language to read in.
unwrap(await api.setDisplay({ width: 1366, height: 768 }));
unwrap(await api.setDisplay({ width: 1024, height: 600 }));
markFlushLog(log, 'display');
unwrap(await api.setPictureQuality('large'));
markFlushLog(log, 'quality');
unwrap(await api.setStorageBudget(900 * 1024 * 1024));
markFlushLog(log, 'budget');
unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
markFlushLog(log, 'scope');
unwrap(await api.setLanguage('de'));
markFlushLog(log, 'language');
await settled();
const settings = flushesSince(log, dataDir, from);
from = settings.end;

// The site goes away (its port closed): a pause, and the outbox's try of it, refused by the network.
await site.close();
unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
unwrap(await api.flushOutbox());
await settled();
const away = flushesSince(log, dataDir, from);

console.log(
  JSON.stringify({
    opened: opened.flushes,
    first: first.flushes,
    served,
    open: open.flushes,
    start: start.flushes,
    attach: attach.flushes,
    resync: resync.flushes,
    away: away.flushes,
    settings: settings.flushes,
  }),
);
await services.close();
