import { describe, expect, it } from 'vitest';
import type { Result, WorkSession } from '../../electron/contract.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The order of the worklog store's sessions when several were started in the same second (`startedAt` is
// whole seconds): the last made first, whether the window started them or a list told it. A stand-in bridge
// answers as the core does (its list: newest first, the last made first within a second); the whole path
// with the real core and Chromium is e2e long-history's.
let listed: WorkSession[] = [];
let reads = 0;
const session = (id: string, startedAt: number): WorkSession => ({
  id,
  entryid: null,
  guideid: 1,
  guideRevisionid: 1,
  guideTitle: 'Forklift',
  workorderid: id,
  userid: 1,
  status: 'started',
  startedAt,
  endedAt: null,
  pausedAt: null,
  pauseSeconds: 0,
  activeStepid: null,
  values: [],
  pendingActions: 0,
  failedActions: 0,
  openConflicts: 0,
  signOff: null,
  takenFrom: null,
  siteDecided: null,
  removedOnSite: null,
  stateFromSite: null,
  handedBack: null,
  ranUnwatched: null,
  stateNotOnSite: null,
  guideRevised: false,
  siteGuideRevisionid: null,
  readOrder: ++reads,
});
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fakeBridge = {
  onEvent: () => () => undefined,
  listSessions: async () => ok(listed.map((s) => ({ ...s, readOrder: ++reads }))),
  startSession: async (input: { workorderid: string }) => ok(session(input.workorderid, 1_000)),
};

const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/worklog.ts'),
  () => {
    listed = [];
  },
);
const useWorklogStore = () => stores.module.useWorklogStore();

const order = (sessions: readonly WorkSession[]) => sessions.map((s) => s.id);

describe('sessions started in the same second', () => {
  it('started here: the last started first, above an older one', async () => {
    const store = useWorklogStore();
    listed = [session('WO-OLD', 900)];
    await store.loadAll();
    for (const id of ['WO-1', 'WO-2', 'WO-3']) await store.start({ guideid: 1, workorderid: id });
    expect(order(store.sessions)).toEqual(['WO-3', 'WO-2', 'WO-1', 'WO-OLD']);
  });

  it("told by a list: in the list's order, whatever order the window met them in before", async () => {
    const store = useWorklogStore();
    // Met one by one in the order they were made (as their events reach an open window)...
    for (const id of ['WO-1', 'WO-2', 'WO-3']) await store.start({ guideid: 1, workorderid: id });
    // ...then a list that says WO-2 was made last (another window's start, say): the list is the core's word.
    listed = [session('WO-2', 1_000), session('WO-3', 1_000), session('WO-1', 1_000)];
    await store.loadGuide(1);
    expect(order(store.sessions)).toEqual(['WO-2', 'WO-3', 'WO-1']);
  });
});
