import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { reviseStepOnSite } from '../helpers/revise-step.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 30, acceptance 1 (the core's part; the banner is in test/e2e/guide-changes.test.ts): over real
// HTTP, a guide revised on the site after tech1 read it shows what changed, step by step, computed with
// no network from the revision tech1 read (kept for them) and the new one; tech2, who never read it on
// this laptop, is told nothing.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let belt: GuideDetail;
const REWORDED = 'Loosen the motor mount bolts a half turn, no more.';
const ADDED = 'Check the belt guard for cracks before you refit it.';

const switchTo = async (who: 'tech1' | 'tech2') => {
  const { email, password } = DEMO_ACCOUNTS[who];
  unwrap(await app.services.api.switchTechnician({ email, password }));
};

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  app = makeServices();
  // Both on this laptop, tech1 working now.
  for (const who of ['tech2', 'tech1'] as const) {
    const { email, password } = DEMO_ACCOUNTS[who];
    unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  }
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  const { guideid } = site.db
    .prepare('SELECT g.guideid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE r.title = ?')
    .get('Replace the Drive Belt on a 60-Gallon Air Compressor') as { guideid: number };
  belt = unwrap(await app.services.api.getGuide(guideid));
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a guide changed since the technician last read it', () => {
  it('says what changed in step 3 to tech1, who read it before, with no network', async () => {
    expect(unwrap(await app.services.api.guideChanges(belt.guideid))).toBeNull();
    const revised = await reviseStepOnSite(site, belt.guideid, 3, { reworded: REWORDED, added: ADDED });
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    expect(unwrap(await app.services.api.getGuide(belt.guideid)).revisionid).toBe(revised);

    proxy.setSchedule(always({ kind: 'reset' }));
    expect(unwrap(await app.services.api.changedGuides())).toEqual([belt.guideid]);
    const changes = unwrap(await app.services.api.guideChanges(belt.guideid))!;
    const own = belt.steps.filter((s) => s.guideid === belt.guideid);
    const before = own[2]!.lines.map((l) => l.textRendered);
    expect(changes).toMatchObject({ guideid: belt.guideid, fromRevisionid: belt.revisionid, toRevisionid: revised });
    expect(changes.steps).toEqual([
      {
        kind: 'changed',
        number: 3,
        title: own[2]!.title,
        addedLines: [REWORDED, ADDED],
        removedLines: [expect.stringContaining(before[0]!.replace(/<[^>]*>/g, '').slice(0, 12))],
        newPictures: 0,
        addedFields: [],
        removedFields: [],
        renamedFields: [],
      },
    ]);
    proxy.passAll();
  });

  it('tells tech2, who never read it here, nothing', async () => {
    await switchTo('tech2');
    expect(unwrap(await app.services.api.guideChanges(belt.guideid))).toBeNull();
    expect(unwrap(await app.services.api.changedGuides())).toEqual([]);
  });

  it('says nothing more to tech1 once they have seen the change, and the old revision goes', async () => {
    await switchTo('tech1');
    expect(unwrap(await app.services.api.guideChanges(belt.guideid))).not.toBeNull();
    unwrap(await app.services.api.seenGuideChanges(belt.guideid));
    expect(unwrap(await app.services.api.guideChanges(belt.guideid))).toBeNull();
    expect(unwrap(await app.services.api.changedGuides())).toEqual([]);
  });
});
