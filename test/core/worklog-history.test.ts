import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';

// A long history of work sessions: the Sessions list asks for every open one and the newest ended ones only,
// so a year of finished work is not read, sent and drawn whole each time it opens.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let now = Date.now();

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices(undefined, { clock: () => now, monotonic: () => now });
  await signInAndSync(app.services, site.url);
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe("a technician's history of sessions", () => {
  it('lists every open session and the newest of the ended ones asked for, newest first', async () => {
    const { api } = app.services;
    const { guide } = await guideWithForms(api);
    const made: { id: string; open: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      now += 5_000;
      const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: `WO-HISTORY-${i}` }));
      // Two left open among the ended: the oldest and one in the middle.
      const open = i === 0 || i === 4;
      if (!open) unwrap(await api.transitionSession({ sessionId: session.id, transition: 'finish' }));
      made.push({ id: session.id, open });
    }
    const newestFirst = [...made].reverse();
    const ids = (list: { id: string }[]) => list.map((session) => session.id);

    expect(ids(unwrap(await api.listSessions({})))).toEqual(ids(newestFirst));
    const newestEnded = newestFirst.filter((s) => !s.open).slice(0, 3);
    expect(ids(unwrap(await api.listSessions({ ended: 3 })))).toEqual(
      ids(newestFirst.filter((s) => s.open || newestEnded.includes(s))),
    );
    // Of one guide, the same rule.
    expect(ids(unwrap(await api.listSessions({ guideid: guide.guideid, ended: 1 })))).toEqual(
      ids(newestFirst.filter((s) => s.open || s === newestEnded[0])),
    );
    // None ended: the open ones alone (what a guide's page shows).
    expect(ids(unwrap(await api.listSessions({ guideid: guide.guideid, ended: 0 })))).toEqual(
      ids(newestFirst.filter((s) => s.open)),
    );
    expect(await api.listSessions({ ended: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('lists sessions started in the same second in the order they were started, the last first', async () => {
    // A technician who started the wrong work order and at once the right one (or four trucks in a row from
    // their work orders) finds the last started on top, as every other list says: they were in the order
    // of their random ids.
    const { api } = app.services;
    const { guide } = await guideWithForms(api);
    now += 60_000;
    const started: string[] = [];
    for (let truck = 1; truck <= 6; truck++)
      started.push(unwrap(await api.startSession({ guideid: guide.guideid, workorderid: `WO-SAME-${truck}` })).id);
    const listed = unwrap(await api.listSessions({ guideid: guide.guideid, ended: 0 })).map((session) => session.id);
    expect(listed.slice(0, 6)).toEqual(started.reverse());
  });
});
