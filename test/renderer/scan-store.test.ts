import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CategoryNode, Result, WorkSession } from '../../electron/contract.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The scan store looking a code up with a stand-in bridge whose category tree comes when the test says (a
// busy computer): while the lookup is out, after a moment, it says so; a quick answer says nothing (no flash).
const treeReads: ((value: Result<CategoryNode[]>) => void)[] = [];
const fakeBridge = {
  onEvent: () => () => undefined,
  getCategories: () => new Promise<Result<CategoryNode[]>>((resolve) => treeReads.push(resolve)),
  getGuideSummary: () => Promise.resolve({ ok: false, error: { code: 'not_found', message: 'No such guide' } }),
  listSessions: () => Promise.resolve<Result<WorkSession[]>>({ ok: true, value: [] }),
};
const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/scan.ts'),
  () => {
    treeReads.length = 0;
    (globalThis as unknown as { window: Record<string, unknown> }).window.location = { origin: 'app://fieldguide' };
  },
);
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());
/** Lets the store's awaited answers run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('a scanned code looked up', () => {
  it('is said as looked up while its lookup is out past a moment, and the answer takes the words away', async () => {
    const { useScanStore, LOOKING_SAID_AFTER_MS } = stores.module;
    const scan = useScanStore();
    const outcome = scan.resolve('4006381333931\r');
    await vi.advanceTimersByTimeAsync(LOOKING_SAID_AFTER_MS - 1);
    expect(scan.looking).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(scan.looking).toBe('Looking up the code “4006381333931”…');
    treeReads[0]!({ ok: true, value: [] });
    expect(await outcome).toMatchObject({ to: 'search', text: '4006381333931' });
    expect(scan.looking).toBeNull();
  });

  it('says nothing when the answer comes at once, and only the last of two lookups', async () => {
    const { useScanStore, LOOKING_SAID_AFTER_MS } = stores.module;
    const scan = useScanStore();
    const quick = scan.resolve('12');
    await settle();
    treeReads[0]!({ ok: true, value: [] });
    await quick;
    await vi.advanceTimersByTimeAsync(LOOKING_SAID_AFTER_MS * 3);
    expect(scan.looking).toBeNull();

    // A first code still out when a second is scanned: the second is said, and the first's answer leaves it.
    const first = scan.resolve('WO-1');
    await vi.advanceTimersByTimeAsync(10);
    const second = scan.resolve(`https://other.example/${'a'.repeat(100)}`);
    await vi.advanceTimersByTimeAsync(LOOKING_SAID_AFTER_MS);
    expect(scan.looking).toMatch(/^Looking up the code “https:\/\/other\.example\/a+…”…$/);
    expect(scan.looking!.length).toBeLessThan(90);
    treeReads[1]!({ ok: true, value: [] });
    // The first's answer, come while the second is out, opens nothing: the second is the one scanned last.
    expect(await first).toEqual({ to: 'superseded' });
    expect(scan.looking).toMatch(/other\.example/);
    treeReads[2]!({ ok: true, value: [] });
    expect(await second).toMatchObject({ to: 'search' });
    expect(scan.looking).toBeNull();
  });

  it("opens the last of two codes scanned close together, whichever's answer comes first", async () => {
    const { useScanStore } = stores.module;
    const scan = useScanStore();
    const first = scan.resolve('PN-ZZ-1');
    await settle();
    const second = scan.resolve('WO-2');
    await settle();
    treeReads[1]!({ ok: true, value: [] });
    expect(await second).toMatchObject({ to: 'search', text: 'WO-2' });
    treeReads[0]!({ ok: true, value: [] });
    expect(await first).toEqual({ to: 'superseded' });
  });

  it('opens nothing when it answers after the technician moved on, and is no longer said as looked up', async () => {
    const { useScanStore, LOOKING_SAID_AFTER_MS } = stores.module;
    const scan = useScanStore();
    const late = scan.resolve('12');
    await vi.advanceTimersByTimeAsync(LOOKING_SAID_AFTER_MS);
    expect(scan.looking).not.toBeNull();
    scan.drop();
    expect(scan.looking).toBeNull();
    treeReads[0]!({ ok: true, value: [] });
    expect(await late).toEqual({ to: 'superseded' });
  });
});
