import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL, type HandedOverSession, type Result } from '../../electron/contract.ts';
import { useWorklogStore } from '../../src/stores/worklog.ts';

// The worklog store's questions to the site (others' suspended sessions of a guide), with a stand-in
// bridge whose answers come when the test says, as a hanging site gives them. The store's logic is under
// test; the web shell's six connections and a hanging site are e2e hanging-site-work's.
type Answer = (value: Result<HandedOverSession[]>) => void;
const asked: { guideid: number; answer: Answer }[] = [];
const fakeBridge = {
  onEvent: () => () => undefined,
  listSuspended: (guideid: number) =>
    new Promise<Result<HandedOverSession[]>>((resolve) => asked.push({ guideid, answer: resolve })),
};
const none: Result<HandedOverSession[]> = { ok: true, value: [] };
const turns = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  (globalThis as Record<string, unknown>).window = { [BRIDGE_GLOBAL]: fakeBridge };
  setActivePinia(createPinia());
  asked.length = 0;
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe("the worklog store's questions to the site", () => {
  it('shares a question on its way for the same guide, and asks another guide once it is answered', async () => {
    const store = useWorklogStore();
    const first = store.suspended(1);
    const again = store.suspended(1);
    const other = store.suspended(2);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1]);
    asked[0]!.answer(none);
    expect(await first).toBe(none);
    expect(await again).toBe(none);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1, 2]);
    asked[1]!.answer(none);
    expect(await other).toBe(none);
  });

  it("asks anew for the next technician: never shares the previous one's question", async () => {
    const store = useWorklogStore();
    void store.suspended(1);
    await turns();
    store.forget();
    void store.suspended(1);
    await turns();
    expect(asked.map((q) => q.guideid)).toEqual([1, 1]);
  });
});
