import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, mulberry32, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { syncedWorkFolder } from '../helpers/work-folder.ts';
import { seedCount, seedStart } from '../helpers/seeds.ts';

// A disk that turns read-only while the technician works (issue 24, item 6), made real: an ext4 file
// system on a loop device this test makes, mounted with errors=remount-ro, and an error set off on it
// (the kernel's trigger_fs_error) part-way through a loop of saves. Every refusal says the computer
// cannot write to its disk (not that it is full), and every save the app acknowledged is in the database
// when the disk is mounted again. Needs root (losetup, mount); skipped, saying why, without it.
const RUNS = seedCount(5, 2);
const SAVES = 60;
const temp = makeTempDir('read-only');
const image = path.join(temp.dir, 'disk.img');
const mountPoint = path.join(temp.dir, 'disk');
fs.mkdirSync(mountPoint);
let loop = '';
const usable = (() => {
  const made =
    spawnSync('truncate', ['-s', '64M', image]).status === 0 &&
    spawnSync('mkfs.ext4', ['-q', '-F', image]).status === 0;
  if (!made) return false;
  const attached = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  if (attached.status !== 0) return false;
  loop = attached.stdout.trim();
  return true;
})();
if (!usable)
  console.warn('read-only disk tests skipped: making a loop device is not permitted here (run the tests as root)');
const dataDir = path.join(mountPoint, 'data');

let site: RunningSite;
let proxy: FaultProxy;
let template: ReturnType<typeof makeTempDir>;
let field: { field: StepFormField; stepid: number };
let guideid: number;

function mount(): void {
  execFileSync('mount', ['-o', 'errors=remount-ro', loop, mountPoint]);
}

function unmount(): void {
  if (spawnSync('umount', [mountPoint]).status !== 0) execFileSync('umount', ['-l', mountPoint]);
}

beforeAll(async () => {
  if (!usable) return;
  let app: Awaited<ReturnType<typeof syncedWorkFolder>>['app'];
  ({ site, proxy, guideid, folder: template, app } = await syncedWorkFolder('read-only-template'));
  const guide = unwrap(await app.services.api.getGuide(guideid));
  field = guide.steps
    .flatMap((s) => (s.form?.fields ?? []).map((f) => ({ field: f, stepid: s.stepid })))
    .find((f) => f.field.type === 'Text Input')!;
  await app.services.close();
  proxy.setSchedule(always({ kind: 'reset' }));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await site?.close();
  template?.remove();
  if (usable) {
    spawnSync('umount', ['-l', mountPoint]);
    spawnSync('losetup', ['-d', loop]);
  }
  temp.remove();
});

describe.skipIf(!usable)('a disk that turns read-only while the technician saves', () => {
  it(
    `says it cannot write to its disk, and loses no acknowledged save (${RUNS} seeded runs)`,
    { timeout: 300_000 },
    async () => {
      const random = mulberry32(seedStart(606));
      const problems: string[] = [];
      for (let run = 1; run <= RUNS; run++) {
        execFileSync('mkfs.ext4', ['-q', '-F', loop]);
        mount();
        fs.cpSync(template.dir, dataDir, { recursive: true });
        const failAt = 5 + Math.floor(random() * (SAVES - 10));
        const acked: { sessionId: string; value: string }[] = [];
        const refusals: string[] = [];
        const app = makeServices(dataDir);
        try {
          const api = app.services.api;
          const session = unwrap(await api.startSession({ guideid, workorderid: `RO-${run}` }));
          for (let i = 0; i < SAVES; i++) {
            if (i === failAt) fs.writeFileSync(`/sys/fs/ext4/${path.basename(loop)}/trigger_fs_error`, '1');
            const value = `reading ${run}-${i}`;
            const saved = await api.saveStepData({
              sessionId: session.id,
              stepid: field.stepid,
              values: [{ fieldGuid: field.field.fieldGuid, value }],
            });
            if (saved.ok) acked.push({ sessionId: session.id, value });
            else refusals.push(`${saved.error.code}: ${saved.error.message}`);
          }
          // Reads go on: the session, as the disk holds it.
          expect(unwrap(await api.getSession(session.id)).id).toBe(session.id);
          // Said to the screens as a disk that cannot be written, not a full one ("Disk full… Free some space").
          if (refusals.length > 0 && !unwrap(await api.getOutbox()).summary.diskFailed)
            problems.push(`run ${run}: the outbox summary did not say the disk failed`);
          if (refusals.length > 0 && !app.events.some((e) => e.name === 'outbox' && e.payload.diskFailed))
            problems.push(`run ${run}: no outbox event said the disk failed`);
        } finally {
          await app.services.close();
        }
        unmount();
        spawnSync('e2fsck', ['-fy', loop]);
        mount();
        const again = makeServices(dataDir);
        try {
          const last = acked.at(-1);
          if (last) {
            const held = unwrap(await again.services.api.getSession(last.sessionId)).values.find(
              (v) => v.fieldGuid === field.field.fieldGuid,
            )?.value;
            if (held !== last.value)
              problems.push(`run ${run}: the last acknowledged save was ${last.value}, the database holds ${held}`);
          }
        } finally {
          await again.services.close();
          unmount();
        }
        if (refusals.length === 0)
          problems.push(`run ${run}: nothing was refused after the disk failed at save ${failAt}`);
        const wrong = refusals.filter((r) => !r.startsWith('storage_failed: This computer cannot write to its disk'));
        if (wrong.length > 0) problems.push(`run ${run}: ${wrong.length} refusal(s) said ${wrong[0]}`);
      }
      expect(problems).toEqual([]);
    },
  );
});
