import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { always, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { syncedWorkFolder } from '../helpers/work-folder.ts';
import { sampleValue } from '../helpers/worklog.ts';

// A write-ahead log lost after a crash on the day the library was synced (found walking disk faults in
// Chromium): the work came back from the work journal, but the guide it follows was only in the log, and
// the session said "There is no guide 10 in the library": offline, the technician could not go on. A sync
// now moves what it stored into the database file (a checkpoint), so a lost or damaged log takes no guide.
const DB = 'fieldguide.sqlite';
let site: RunningSite;
let proxy: FaultProxy;
let folder: ReturnType<typeof makeTempDir>;
let app: ReturnType<typeof makeServices>;
let guideid: number;
let sessionId: string;
let saved: { stepid: number; fieldGuid: string; value: string };
const copies: ReturnType<typeof makeTempDir>[] = [];

beforeAll(async () => {
  ({ site, proxy, folder, app, guideid } = await syncedWorkFolder('library-log-loss'));
  // Offline, the technician starts the job and records a value: in the log, and in the work journal.
  proxy.setSchedule(always({ kind: 'reset' }));
  const { api } = app.services;
  const guide = unwrap(await api.getGuide(guideid));
  const fields = guide.steps.flatMap((step) =>
    (step.form?.fields ?? []).map((field) => ({ field, stepid: step.stepid })),
  );
  const { field, stepid } = fields.find((f) => sampleValue(f.field) !== null)!;
  sessionId = unwrap(await api.startSession({ guideid, workorderid: 'WO-LOG-LOSS' })).id;
  saved = { stepid, fieldGuid: field.fieldGuid, value: sampleValue(field)! };
  unwrap(await api.saveStepData({ sessionId, stepid, values: [{ fieldGuid: field.fieldGuid, value: saved.value }] }));
}, 120_000);
afterAll(async () => {
  await app?.dispose();
  for (const copy of copies) copy.remove();
  folder?.remove();
  await proxy?.close();
  await site?.close();
});

/** The data folder as a crash leaves it (copied while the app runs), its log then taken by `harm`. */
function crashedCopy(name: string, harm: (wal: string) => void): string {
  const copy = makeTempDir(name);
  copies.push(copy);
  fs.cpSync(folder.dir, copy.dir, { recursive: true });
  harm(path.join(copy.dir, `${DB}-wal`));
  return copy.dir;
}

describe('a log lost or damaged after a crash on the day of a sync', () => {
  for (const [name, harm] of [
    ['deleted', (wal: string) => fs.rmSync(wal, { force: true })],
    [
      'damaged at its third frame',
      (wal: string) => {
        // SQLite reads a log up to its first frame whose checksum fails: the rest is as if never written.
        const bytes = fs.readFileSync(wal);
        const frame = 24 + 4096;
        bytes.fill(0xa5, 32 + 2 * frame + 100, 32 + 2 * frame + 600);
        fs.writeFileSync(wal, bytes);
      },
    ],
  ] as const)
    it(`${name}: the session's guide is still in the library, its work too, offline`, async () => {
      const dir = crashedCopy(`library-log-loss-${name.split(' ')[0]}`, harm);
      const again = makeServices(dir);
      try {
        const { api } = again.services;
        const guide = await api.getGuide(guideid);
        expect(guide.ok ? { steps: guide.value.steps.length > 0 } : guide.error.message).toEqual({ steps: true });
        const session = unwrap(await api.getSession(sessionId));
        expect(session.values.find((v) => v.fieldGuid === saved.fieldGuid)?.value).toBe(saved.value);
      } finally {
        await again.dispose();
      }
    });
});
