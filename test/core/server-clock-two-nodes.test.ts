import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { startTwoNodes } from '../helpers/two-nodes.ts';
import { guideWithForms } from '../helpers/worklog.ts';

// A site behind two nodes whose clocks differ by an hour (issue 24, item 9). Time is simulated: `real`
// moves the laptop's wall and monotonic clocks together, and both nodes' clocks, the second an hour ahead.
const HOUR = 3600;
let real = Math.floor(Date.now() / 1000) * 1000;
const tmp = makeTempDir('two-nodes');
let site: Awaited<ReturnType<typeof startTwoNodes>>;
let app: ReturnType<typeof makeServices>;
let guide: GuideDetail;

const nodeClock = (offset: number) => ({ now: () => Math.floor(real / 1000) + offset, set: () => {} });

beforeAll(async () => {
  site = await startTwoNodes({ dbFile: `${tmp.dir}/site.sqlite`, clocks: [nodeClock(0), nodeClock(HOUR)] });
  app = makeServices(undefined, { clock: () => real, monotonic: () => real });
  await signInAndSync(app.services, site.url);
  ({ guide } = await guideWithForms(app.services.api));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
  tmp.remove();
});

/** One answer from this node, so the next action is stamped right after it. */
async function answerFrom(node: 0 | 1): Promise<void> {
  site.pin(node);
  unwrap(await app.services.api.search({ text: 'valve', where: 'site' }));
  site.alternate();
}

describe('a site whose two nodes disagree by an hour', () => {
  it('keeps one clock: a true 120 s pause is sent as 120 s, the start dated on the clock learned first', async () => {
    const tech = await signIn(site.nodes[0], 'tech1');
    await answerFrom(1);
    const startedAt = Math.floor(real / 1000);
    const input = { guideid: guide.guideid, workorderid: 'WO-TWO-NODES' };
    const session = unwrap(await app.services.api.startSession(input));
    unwrap(await app.services.api.flushOutbox());
    real += 60_000;
    await answerFrom(1);
    unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    unwrap(await app.services.api.flushOutbox());
    real += 120_000;
    await answerFrom(0);
    unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'resume' }));
    expect(unwrap(await app.services.api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });

    const { entryid } = unwrap(await app.services.api.getSession(session.id));
    const entry = (await api(site.nodes[0], 'GET', `/work_log/${entryid}`, { token: tech.token })).body as {
      starttime: number;
      pause_duration: number;
    };
    expect(entry.pause_duration).toBe(120);
    // Sign-in's answer came from the first node, whose clock the laptop keeps: the start is dated on it.
    expect(Math.abs(entry.starttime - startedAt)).toBeLessThanOrEqual(1);
  });
});
