import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail, WorkSession } from '../../electron/contract.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// A site that answers a save of step data and the transitions with no public answer shape (pause, resume,
// suspend, cancel, assume) with no body at all (204), as public-shapes.md says one public client saw for
// step data. Each such write landed: the app takes it so, reads the entry back for its revision, and the
// session's next actions follow. Before, the empty answer was read as an entry (a TypeError, a local
// fault): the save was failed for good though the site held it, and the session's chain waited behind it.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const folder = makeTempDir('quiet-site');

beforeAll(async () => {
  site = await startDemoSite({ quietWrites: true });
  app = makeServices(folder.dir);
  await signInAndSync(app.services, site.url);
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
  folder.remove();
});

/** A stored guide with a Text Input field, and that field. */
async function textGuide(): Promise<{ guide: GuideDetail; stepid: number; fieldGuid: string }> {
  for (const { guideid } of await allLocalGuides(app.services.api)) {
    const guide = unwrap(await app.services.api.getGuide(guideid));
    for (const step of guide.steps) {
      const field = step.form?.fields.find((f) => f.type === 'Text Input');
      if (field) return { guide, stepid: step.stepid, fieldGuid: field.fieldGuid };
    }
  }
  throw new Error('no stored guide has a Text Input field');
}

/** Send now until nothing waits (bounded); what the outbox says then. */
async function drain() {
  for (let i = 0; i < 40; i++) {
    const summary = unwrap(await app.services.api.flushOutbox());
    if (summary.pending + summary.inFlight === 0) return summary;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return unwrap(await app.services.api.getOutbox()).summary;
}

const session = async (id: string): Promise<WorkSession> => unwrap(await app.services.api.getSession(id));

describe('a site that answers work-log saves and transitions with no body', () => {
  it('plays its part: the write is applied, the answer is a 204 with nothing in it', async () => {
    const tech = await signIn(site, 'tech1');
    const [first] = (await api(site, 'GET', '/guides?limit=1')).body as { guideid: number }[];
    const started = await api<{ entryid: number; revisionid: number }>(site, 'POST', '/work_log', {
      token: tech.token,
      json: { guideid: first!.guideid, workorderid: 'WO-QUIET-PLAIN' },
    });
    expect(started.status).toBe(201);
    const paused = await api(site, 'POST', `/work_log/${started.body.entryid}/pause`, {
      token: tech.token,
      query: { revisionid: started.body.revisionid },
      json: {},
    });
    expect([paused.status, paused.text]).toEqual([204, '']);
    const entry = await api<{ status: string; revisionid: number }>(site, 'GET', `/work_log/${started.body.entryid}`, {
      token: tech.token,
    });
    expect(entry.body.status).toBe('paused');
    expect(entry.body.revisionid).toBeGreaterThan(started.body.revisionid);
  });

  it('replays saves, a pause, a resume, a finish and a cancel: each lands once, nothing fails', async () => {
    const { guide, stepid, fieldGuid } = await textGuide();
    const finished = unwrap(await app.services.api.startSession({ guideid: guide.guideid, workorderid: 'WO-QUIET-1' }));
    const save = (sessionId: string, value: string) =>
      app.services.api.saveStepData({ sessionId, stepid, values: [{ fieldGuid, value }] });
    unwrap(await save(finished.id, 'reading one'));
    unwrap(await app.services.api.transitionSession({ sessionId: finished.id, transition: 'pause' }));
    unwrap(await app.services.api.transitionSession({ sessionId: finished.id, transition: 'resume' }));
    unwrap(await save(finished.id, 'reading two'));
    unwrap(await app.services.api.transitionSession({ sessionId: finished.id, transition: 'finish' }));
    const cancelled = unwrap(
      await app.services.api.startSession({ guideid: guide.guideid, workorderid: 'WO-QUIET-2' }),
    );
    unwrap(await save(cancelled.id, 'half done'));
    unwrap(await app.services.api.transitionSession({ sessionId: cancelled.id, transition: 'cancel' }));

    const summary = await drain();
    expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    for (const id of [finished.id, cancelled.id]) {
      expect(await session(id)).toMatchObject({ pendingActions: 0, failedActions: 0, openConflicts: 0 });
    }

    // On the site: each session once, in its final state, with the last value saved.
    const tech = await signIn(site, 'tech1');
    const listed = await api<{ results: { entryid: number; workorderid: string; status: string }[] }>(
      site,
      'GET',
      `/work_log?userid=${tech.userid}&limit=200`,
      { token: tech.token },
    );
    const mine = listed.body.results.filter(
      (e) => e.workorderid.startsWith('WO-QUIET-') && e.workorderid !== 'WO-QUIET-PLAIN',
    );
    expect(mine.map((e) => [e.workorderid, e.status]).sort()).toEqual([
      ['WO-QUIET-1', 'complete'],
      ['WO-QUIET-2', 'cancelled'],
    ]);
    const entry = await api<{ work_data: { value: string }[]; revisionid: number }>(
      site,
      'GET',
      `/work_log/${(await session(finished.id)).entryid}`,
      { token: tech.token },
    );
    expect(entry.body.work_data.map((d) => d.value)).toContain('reading two');
    expect(entry.body.work_data.map((d) => d.value)).not.toContain('reading one');
  });
});
