import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { chainKey, chainKeySql, chainOf } from '../../electron/core/db/chains.ts';
import type { Store } from '../../electron/core/db/store.ts';
import { EventHub } from '../../electron/core/events.ts';
import { defineAction } from '../../electron/core/outbox/action-kind.ts';
import { LISTED, Outbox } from '../../electron/core/outbox/outbox.ts';
import { fetchHttp } from '../helpers/fetch-http.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// The generic outbox with a kind of this test's own (a feature the outbox has never heard of), over a
// real database: it reads, replays and names rows only through the kinds registered with it.
const NOW = 1_800_000_000_000;

let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let outbox: Outbox;
let technician: number;
let sent: string[];
let logs: string[];
let moved: string[];

const notePayload = z.object({ text: z.string().min(1) });
const note = defineAction(
  'test.note',
  notePayload,
  async (ctx, row, payload: z.infer<typeof notePayload>) => {
    sent.push(`${payload.text} by ${ctx.technician}`);
    ctx.transaction(() => ctx.outbox.remove(row.id));
    return { type: 'done' as const };
  },
  { describe: (_deps, _row, payload) => `Note "${payload.text}"` },
);

beforeEach(() => {
  tmp = makeTempDir('outbox-kinds');
  store = openTestStore(tmp.dir);
  const user = { userid: 4, username: 'Tech 4', uniqueUsername: null, privileges: [], imageUrl: null };
  technician = store.technicians.signedIn('https://site.test', user, null, NOW / 1000);
  [sent, logs, moved] = [[], [], []];
  // The kind sends nothing: a transport is still required (each action goes with its technician's own).
  const refuse: typeof fetch = async () => new Response('', { status: 500 });
  const transport = new ApiTransport({ siteUrl: 'https://site.test', token: 't', http: fetchHttp(refuse) });
  outbox = new Outbox({
    store,
    events: new EventHub(),
    transportFor: () => transport,
    sendable: () => [technician],
    refused: () => {},
    current: () => technician,
    others: () => [],
    nowMs: () => NOW,
    random: () => 0.5,
    log: (line) => logs.push(line),
  });
  outbox.register({
    chains: ['note'],
    actions: [note],
    deps: {},
    moved: (chain) => moved.push(`${chain.type} ${chain.id}`),
  });
});

afterEach(async () => {
  await outbox.close();
  store.close();
  tmp.remove();
});

// Bounded in time, not in turns of the event loop: an action leaves once its in-flight mark is on the
// disk, a flush on the thread pool (Store.durable) that a busy machine may take milliseconds to end.
const until = async (done: () => boolean): Promise<void> => {
  for (let wait = 0; wait < 400 && !done(); wait++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('the generic outbox', () => {
  it('replays an action queued with enqueue by itself once the transaction is done: nobody calls kick', async () => {
    store.transaction(() => {
      outbox.enqueue(note, { text: 'hello' }, { chain: { type: 'note', id: 'n1' }, actedAt: 1, technician });
    });
    await until(() => sent.length > 0 && moved.length > 0);
    expect(sent).toEqual([`hello by ${technician}`]);
    expect(moved).toEqual(['note n1']);
    expect(store.outbox.all(technician)).toEqual([]);
  });

  it("refuses at enqueue a payload its kind's schema refuses, and the caller's transaction stores nothing", () => {
    const wrong = { text: 42 } as unknown as { text: string };
    const at = { chain: { type: 'note', id: 'n2' }, actedAt: 1, technician };
    expect(() => store.transaction(() => outbox.enqueue(note, wrong, at))).toThrow(/expected string/i);
    expect(store.outbox.all(technician)).toEqual([]);
  });

  it('refuses a kind no feature registered', () => {
    const stray = defineAction('test.stray', notePayload, async () => ({ type: 'done' as const }));
    const at = { chain: { type: 'note', id: 'n3' }, actedAt: 1, technician };
    expect(() => outbox.enqueue(stray, { text: 'x' }, at)).toThrow('The outbox action "test.stray" is not registered.');
  });

  it("names each action in its kind's words; an unknown kind's row is set aside, the rest drains", async () => {
    store.transaction(() => {
      store.outbox.add(
        note,
        { text: 'kept' },
        { chain: chainKey({ type: 'note', id: 'a' }), actedAt: 1, now: 1, technician },
      );
      // What a newer version (or a damaged file) may leave: a kind nobody registered here.
      const stray = defineAction('test.unknown', notePayload, async () => ({ type: 'done' as const }));
      store.outbox.add(
        stray,
        { text: 'stray' },
        { chain: chainKey({ type: 'note', id: 'b' }), actedAt: 1, now: 1, technician },
      );
    });
    expect(outbox.view().actions.map((a) => a.summary)).toEqual(['Note "kept"', 'test.unknown']);
    await outbox.flush();
    expect(sent).toEqual([`kept by ${technician}`]);
    const [left] = store.outbox.all(technician);
    expect(left).toMatchObject({ kind: 'test.unknown', state: 'failed', lastError: 'unknown action "test.unknown"' });
    expect(logs).toContainEqual(expect.stringMatching(/could not be read and was set aside: unknown action/));
  });
  it("counts and shows a feature's work, not its bookkeeping: the kinds it registered as such", () => {
    // A check that waits an hour on the site: bookkeeping, as the work log's check for a second copy is.
    const later = async () => ({ type: 'wait' as const, atMs: NOW + 3_600_000, message: 'later' });
    const check = defineAction('test.check', notePayload, later, { bookkeeping: true });
    const task = defineAction('test.task', notePayload, later);
    outbox.register({ chains: ['check'], actions: [check, task], deps: {} });
    store.transaction(() => {
      outbox.enqueue(check, { text: 'look' }, { chain: { type: 'check', id: 'c' }, actedAt: 1, technician });
      outbox.enqueue(task, { text: 'do' }, { chain: { type: 'check', id: 't' }, actedAt: 1, technician });
    });
    expect(outbox.view().actions.map((a) => a.summary)).toEqual(['test.task']);
    expect(outbox.summary()).toMatchObject({ pending: 1 });
    expect(outbox.unsettled()).toEqual({ unsent: 1, conflicts: 0 });
    expect(store.technicians.work()).toEqual([{ technician, unsent: 1, failed: 0, conflicts: 0 }]);
  });

  it('gives a free lane to the work before its bookkeeping, older or not, and each chain keeps its order', () => {
    const later = async () => ({ type: 'wait' as const, atMs: NOW + 3_600_000, message: 'later' });
    const check = defineAction('test.check', notePayload, later, { bookkeeping: true });
    const task = defineAction('test.task', notePayload, later);
    outbox.register({ chains: ['check'], actions: [check, task], deps: {} });
    const at = (id: string) => ({ chain: { type: 'check', id }, actedAt: 1, technician });
    store.transaction(() => {
      outbox.enqueue(check, { text: 'look first' }, at('c1'));
      outbox.enqueue(check, { text: 'look again' }, at('c2'));
      outbox.enqueue(task, { text: 'do' }, at('t1'));
      outbox.enqueue(task, { text: 'then' }, at('t1'));
      outbox.enqueue(task, { text: 'other' }, at('t2'));
    });
    const due = (free: number) => store.outbox.due(NOW, free, [technician]).map((row) => JSON.parse(row.payload));
    expect(due(1)).toEqual([{ text: 'do' }]);
    expect(due(3)).toEqual([{ text: 'do' }, { text: 'other' }, { text: 'look first' }]);
  });

  it('lists the first LISTED actions for the screen, and every failed one after them, and how many more wait', () => {
    // A long queue: LISTED + 50 notes in 10 chains, one failed among the first listed, two far after them.
    const ids = store.transaction(() =>
      Array.from({ length: LISTED + 50 }, (_, n) =>
        store.outbox.add(
          note,
          { text: `n${n}` },
          { chain: chainKey({ type: 'note', id: `c${n % 10}` }), actedAt: 1, now: 1, technician },
        ),
      ),
    );
    store.transaction(() => {
      for (const n of [3, LISTED + 10, LISTED + 40]) store.outbox.fail(ids[n]!, 'refused');
    });
    const view = outbox.view();
    expect(view.actions.map((action) => action.id)).toEqual([
      ...ids.slice(0, LISTED),
      ids[LISTED + 10],
      ids[LISTED + 40],
    ]);
    expect(view.actions.filter((action) => action.state === 'failed')).toHaveLength(3);
    expect(view.unlisted).toBe(48);
    expect(view.summary).toMatchObject({ pending: LISTED + 47, failed: 3 });
    // A short queue is listed whole.
    store.transaction(() => {
      for (const id of ids.slice(20)) store.outbox.remove(id);
    });
    expect(outbox.view()).toMatchObject({ actions: { length: 20 }, unlisted: 0 });
  });
});

describe('the chain codec', () => {
  it('stores a session as its id alone (as the first release did) and every other chain as type:id', () => {
    expect(chainKey({ type: 'session', id: 'c2100f14' })).toBe('c2100f14');
    expect(chainKey({ type: 'quiz', id: 'a1' })).toBe('quiz:a1');
    for (const ref of [
      { type: 'session', id: 'c2100f14-cc1a' },
      { type: 'quiz', id: 'a1' },
      { type: 'doubles', id: 'x:y' },
    ])
      expect(chainOf(chainKey(ref))).toEqual(ref);
  });

  it('says the same in SQL as in TypeScript', () => {
    const db = new Database(':memory:');
    db.exec("CREATE TABLE t (id TEXT); INSERT INTO t VALUES ('c2100f14'), ('a1')");
    for (const type of ['session', 'quiz', 'doubles']) {
      const keys = db.prepare(`SELECT ${chainKeySql(type, 'id')} AS key FROM t ORDER BY id`).all();
      expect(keys).toEqual(['a1', 'c2100f14'].map((id) => ({ key: chainKey({ type, id }) })));
    }
    db.close();
    expect(() => chainKeySql("quiz' OR 1=1 --", 'id')).toThrow();
  });
});
