import { describe, expect, it } from 'vitest';
import type { Result, SuspendedList } from '../../electron/contract.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The worklog store's questions to the site (others' suspended sessions of a guide), with a stand-in
// bridge whose answers come when the test says, as a hanging site gives them. The store's logic is under
// test; the web shell's six connections and a hanging site are e2e hanging-site-work's.
type Answer = (value: Result<SuspendedList>) => void;
const asked: { guideid: number; answer: Answer }[] = [];
const fakeBridge = {
  onEvent: () => () => undefined,
  listSuspended: (guideid: number) =>
    new Promise<Result<SuspendedList>>((resolve) => asked.push({ guideid, answer: resolve })),
};
const none: Result<SuspendedList> = { ok: true, value: { sessions: [], unreadable: 0 } };
const turns = () => new Promise((resolve) => setTimeout(resolve, 0));

const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/worklog.ts'),
  () => {
    asked.length = 0;
  },
);
const useWorklogStore = () => stores.module.useWorklogStore();

describe("the worklog store's questions to the site", () => {
  it('sends one at a time; asked again while waiting its turn it is the same question, never one sent', async () => {
    const store = useWorklogStore();
    const first = store.suspended(1);
    await turns(); // sent
    const again = store.suspended(1); // waits: the first is on its way, and may be an answer from before
    const other = store.suspended(2);
    const once = store.suspended(1); // the same as `again`, still waiting its turn
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1]);
    const fresh: Result<SuspendedList> = { ok: true, value: { sessions: [], unreadable: 0 } };
    asked[0]!.answer(none);
    expect(await first).toBe(none);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1, 1]);
    asked[1]!.answer(fresh);
    expect(await again).toBe(fresh);
    expect(await once).toBe(fresh);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1, 1, 2]);
    asked[2]!.answer(none);
    expect(await other).toBe(none);
  });

  it("asks anew for the next technician: never shares nor waits on the previous one's questions", async () => {
    const store = useWorklogStore();
    void store.suspended(1);
    await turns();
    void store.suspended(1);
    store.forget();
    void store.suspended(1);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1, 1]);
  });
});
