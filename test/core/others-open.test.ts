import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';

// A shared laptop at a change of shift: tech1 left a work order open (paused), tech2 started the same job
// and the site got a second entry of it, with no word to either. The core answers the start form's question:
// whose open sessions of this guide's work order are on this computer, theirs only, never the asker's own.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
const FORKLIFT = 10;
const password = (who: 'tech1' | 'tech2' | 'admin') => ({
  email: DEMO_ACCOUNTS[who].email,
  password: DEMO_ACCOUNTS[who].password,
});

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices();
  api = app.services.api;
  await signInAndSync(app.services, site.url);
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe("another technician's open session of the same work order", () => {
  it('is named to the next technician, work order read as typed, and gone once it ends', async () => {
    const first = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-7' }));
    unwrap(await api.transitionSession({ sessionId: first.id, transition: 'pause' }));
    expect(unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-7' }))).toEqual([]);

    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: ' wo-shift-7 ' }))).toEqual([
      {
        username: DEMO_ACCOUNTS.tech1.username,
        workorderid: 'WO-SHIFT-7',
        status: 'paused',
        startedAt: first.startedAt,
      },
    ]);
    expect(unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-8' }))).toEqual([]);
    expect(unwrap(await api.othersOpen({ guideid: FORKLIFT + 1, workorderid: 'WO-SHIFT-7' }))).toEqual([]);
    const refused = await api.othersOpen({ guideid: FORKLIFT, workorderid: '' });
    expect(refused.ok ? null : refused.error.code).toBe('invalid_input');

    unwrap(await api.switchTechnician(password('tech1')));
    unwrap(await api.transitionSession({ sessionId: first.id, transition: 'resume' }));
    unwrap(await api.transitionSession({ sessionId: first.id, transition: 'cancel' }));
    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: 'WO-SHIFT-7' }))).toEqual([]);
  });

  it('names every colleague with it open, and reads a work order in any script as typed', async () => {
    // Sam and Morgan have the same job open; Jordan asks, typing it in lower case ("wö", not "WÖ").
    unwrap(await api.switchTechnician(password('tech1')));
    unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WÖ-UML-1' }));
    unwrap(await api.switchTechnician(password('admin')));
    unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'wÖ-uml-1' }));
    unwrap(await api.switchTechnician(password('tech2')));
    const open = unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: 'wö-uml-1' }));
    expect(open.map((s) => s.username).sort()).toEqual([DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.tech1.username]);
    // Repeated spaces inside are one work order too.
    unwrap(await api.switchTechnician(password('tech1')));
    unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO  DOUBLE 1' }));
    unwrap(await api.switchTechnician(password('tech2')));
    const spaced = unwrap(await api.othersOpen({ guideid: FORKLIFT, workorderid: 'wo double 1' }));
    expect(spaced.map((s) => s.workorderid)).toEqual(['WO  DOUBLE 1']);
  });
});
