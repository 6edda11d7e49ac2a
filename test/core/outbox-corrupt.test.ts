import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowSum } from '../../electron/core/db/row-sums.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { syncedWorkFolder } from '../helpers/work-folder.ts';

// A damaged outbox row is never sent as it reads: one the app itself wrote wrong (a bug: its checksum
// holds) is reported and set aside when it cannot be read, and the rest drains; one changed on the disk
// (its checksum fails) is put back from the work journal, or set aside when the journal cannot.
let site: RunningSite;
let proxy: FaultProxy;
let template: ReturnType<typeof makeTempDir>;
let guideid: number;

beforeAll(async () => {
  let app: Awaited<ReturnType<typeof syncedWorkFolder>>['app'];
  ({ site, proxy, guideid, folder: template, app } = await syncedWorkFolder('outbox-corrupt'));
  await app.services.close();
});
afterAll(async () => {
  template?.remove();
  await proxy?.close();
  await site?.close();
});

/** Three sessions queued offline on a copy of the template, the app closed: their ids and their actions. */
async function queued(name: string) {
  const dir = makeTempDir(name);
  fs.cpSync(template.dir, dir.dir, { recursive: true });
  proxy.setSchedule(always({ kind: 'reset' }));
  const app = makeServices(dir.dir);
  const api = app.services.api;
  const damaged = unwrap(await api.startSession({ guideid, workorderid: `WO-DAMAGED-${name}` }));
  unwrap(await api.transitionSession({ sessionId: damaged.id, transition: 'pause' }));
  unwrap(await api.transitionSession({ sessionId: damaged.id, transition: 'resume' }));
  const healthy = unwrap(await api.startSession({ guideid, workorderid: `WO-HEALTHY-${name}` }));
  unwrap(await api.transitionSession({ sessionId: healthy.id, transition: 'finish' }));
  const unknownKind = unwrap(await api.startSession({ guideid, workorderid: `WO-UNKNOWN-${name}` }));
  const actions = unwrap(await api.getOutbox()).actions;
  await app.services.close();
  proxy.passAll();
  const pause = actions.find((a) => a.sessionId === damaged.id && a.kind === 'pause')!;
  const start = actions.find((a) => a.sessionId === unknownKind.id && a.kind === 'start')!;
  return { dir, damaged, healthy, unknownKind, pause, start };
}

/**
 * Changes outbox rows with a connection of its own (the app closed); with `summed`, as the app's own code
 * would have written them (their checksums made).
 */
function edit(dir: string, changes: { id: number; set: string }[], summed: boolean): void {
  const db = new Database(path.join(dir, 'fieldguide.sqlite'));
  try {
    for (const { id, set } of changes) {
      db.prepare(`UPDATE outbox SET ${set} WHERE id = ?`).run(id);
      if (!summed) continue;
      const { row_sum: _, ...row } = db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as Record<string, unknown>;
      db.prepare('UPDATE outbox SET row_sum = ? WHERE id = ?').run(rowSum(Object.values(row)), id);
    }
  } finally {
    db.close();
  }
}

describe('a corrupt outbox row', () => {
  it('written wrong by the app itself: set aside while the others drain; a discard lets its chain go on', async () => {
    const { dir, damaged, healthy, pause, start } = await queued('bug');
    edit(
      dir.dir,
      [
        { id: pause.id, set: `payload = '{"sessionId": '` },
        { id: start.id, set: "kind = 'teleport'" },
      ],
      true,
    );
    const app = makeServices(dir.dir);
    try {
      const api = app.services.api;
      expect(unwrap(await api.getSyncState()).repair, 'its checksum holds: no damage on the disk').toBeNull();
      const summary = unwrap(await api.flushOutbox());
      expect(summary).toMatchObject({ failed: 2, pending: 1 });
      const view = unwrap(await api.getOutbox());
      expect(view.actions.find((a) => a.id === pause.id)).toMatchObject({
        state: 'failed',
        error: 'the stored pause action is not JSON',
      });
      expect(view.actions.find((a) => a.id === start.id)).toMatchObject({
        state: 'failed',
        error: 'unknown action "teleport"',
      });
      expect(app.logs.some((line) => line.includes(`Outbox action ${pause.id} could not be read`))).toBe(true);
      // The healthy session reached the site; the damaged one's later action waits behind its head.
      expect(unwrap(await api.getSession(healthy.id))).toMatchObject({ pendingActions: 0, status: 'complete' });
      expect(unwrap(await api.getSession(damaged.id))).toMatchObject({ pendingActions: 1, failedActions: 1 });

      unwrap(await api.discardAction(pause.id));
      const after = unwrap(await api.flushOutbox());
      expect(after).toMatchObject({ pending: 0, failed: 1 });
      expect(unwrap(await api.getSession(damaged.id))).toMatchObject({
        pendingActions: 0,
        failedActions: 0,
        status: 'started',
      });
    } finally {
      await app.services.close();
      dir.remove();
    }
  });

  it('changed on the disk: put back from the work journal at start, and everything drains', async () => {
    const { dir, damaged, pause, start } = await queued('disk');
    edit(
      dir.dir,
      [
        { id: pause.id, set: `payload = '{"sessionId": '` },
        { id: start.id, set: "kind = 'teleport'" },
      ],
      false,
    );
    const app = makeServices(dir.dir);
    try {
      const api = app.services.api;
      expect(unwrap(await api.getSyncState()).repair).toMatchObject({
        kind: 'restored',
        restored: { outbox: 2 },
        unreadable: [],
      });
      expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
      expect(unwrap(await api.getSession(damaged.id))).toMatchObject({ pendingActions: 0, status: 'started' });
    } finally {
      await app.services.close();
      dir.remove();
    }
  });

  it('changed on the disk, no journal to put it back: set aside with the reason, never sent as it reads', async () => {
    const { dir, pause, start } = await queued('disk-alone');
    edit(
      dir.dir,
      [
        { id: pause.id, set: `payload = '{"sessionId": '` },
        { id: start.id, set: "kind = 'teleport'" },
      ],
      false,
    );
    fs.rmSync(path.join(dir.dir, 'fieldguide.journal'));
    const app = makeServices(dir.dir);
    try {
      const api = app.services.api;
      expect(unwrap(await api.getSyncState()).repair).toMatchObject({
        unreadable: ['outbox (2 row(s) damaged on the disk and kept as found)'],
      });
      expect(unwrap(await api.flushOutbox())).toMatchObject({ failed: 2, pending: 1 });
      const view = unwrap(await api.getOutbox());
      for (const id of [pause.id, start.id])
        expect(view.actions.find((a) => a.id === id)).toMatchObject({
          state: 'failed',
          error: expect.stringContaining('damaged'),
        });
    } finally {
      await app.services.close();
      dir.remove();
    }
  });
});
