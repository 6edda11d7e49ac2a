import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TRANSITION_TABLE } from '../../electron/shared/worklog.ts';
import { APP_METHODS, policiesOf } from '../../electron/core/app-methods.ts';
import { dispatcher, type StorageGuard } from '../../electron/core/invoke.ts';
import type { BoundMethod } from '../../electron/core/methods.ts';
import { worklogMethods } from '../../electron/core/worklog/worklog-methods.ts';
import { makeServices } from '../helpers/services.ts';

// Each App API method is declared once, by its feature, with its argument schema and its policies
// (core/methods.ts); the dispatcher, the shells and the preload take the list and the policies from there.

const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

/** A method that fails with a full disk on its first call, and the calls it got. */
function fullOnce(policies: Partial<BoundMethod>): { method: BoundMethod; calls: () => number } {
  let calls = 0;
  const method: BoundMethod = {
    input: z.tuple([]),
    ...policies,
    call: async () => {
      calls++;
      if (calls === 1) throw full;
      return { ok: true, value: 'saved' };
    },
  };
  return { method, calls: () => calls };
}

/** A guard with a reserve to give back (`gone`: given back already), counting what it gave and refusals said. */
const reserve = (gone = false): StorageGuard & { given: number; refusals: number } => {
  const guard = {
    given: 0,
    refusals: 0,
    full: () => {
      if (gone) return false;
      guard.given++;
      return true;
    },
    refused: () => {
      guard.refusals++;
    },
    damaged: () => 'none' as const,
    failed: () => {},
    settle: () => Promise.resolve(),
    deferFlushes: <T>(fn: () => T) => ({ value: fn(), owed: false }),
  };
  return guard;
};

describe('the App API declared once per feature', () => {
  const disposals: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const dispose of disposals.splice(0)) await dispose();
  });

  it("a technician's work is declared as work where the method is declared, and reading is not", () => {
    const work = APP_METHODS.filter((method) => policiesOf(method).work);
    // A new kind of work adds itself here by its declaration; these may never lose the reserve.
    const saving = ['startSession', 'transitionSession', 'saveStepData', 'attachFile', 'settleConflict'];
    expect(work).toEqual(expect.arrayContaining([...saving, 'submitQuizAttempt']));
    for (const reading of ['getStatus', 'listGuides', 'getGuide', 'listSessions', 'getOutbox', 'listQuizzes']) {
      expect(work).not.toContain(reading);
    }
  });

  it('a method declared work takes the reserve on a full disk whatever it is called; another does not', async () => {
    const renamed = fullOnce({ work: true });
    const plain = fullOnce({});
    const guard = reserve();
    const invoke = dispatcher({ saveStepValues: renamed.method, listTags: plain.method }, { log: () => {}, guard });

    expect(await invoke('saveStepValues', [])).toEqual({ ok: true, value: 'saved' });
    expect([renamed.calls(), guard.given]).toEqual([2, 1]);
    expect(await invoke('listTags', [])).toMatchObject({ ok: false, error: { code: 'storage_full' } });
    expect([plain.calls(), guard.given]).toEqual([1, 1]);
  });

  it('work refused on a full disk with the reserve gone is told to the guard; a reading refused is not', async () => {
    // "Your work still saves, in the little room Fieldguide kept for it" stood after a Save was refused.
    const alwaysFull: BoundMethod = {
      input: z.tuple([]),
      work: true,
      call: async () => {
        throw full;
      },
    };
    const reading: BoundMethod = { ...alwaysFull, work: undefined };
    const guard = reserve(true);
    const invoke = dispatcher({ saveStepValues: alwaysFull, listTags: reading }, { log: () => {}, guard });
    expect(await invoke('listTags', [])).toMatchObject({ ok: false, error: { code: 'storage_full' } });
    expect(guard.refusals).toBe(0);
    expect(await invoke('saveStepValues', [])).toMatchObject({ ok: false, error: { code: 'storage_full' } });
    expect(guard.refusals).toBe(1);
  });

  it("a technician's method with nobody signed in is refused before it runs, in plain words", async () => {
    let ran = 0;
    const method: BoundMethod = {
      input: z.tuple([]),
      technician: true,
      call: async () => {
        ran++;
        return { ok: true, value: null };
      },
    };
    let signedIn = false;
    const invoke = dispatcher({ listSessions: method }, { log: () => {}, signedIn: () => signedIn });
    expect(await invoke('listSessions', [])).toEqual({
      ok: false,
      error: { code: 'unauthorized', message: 'Sign in to a site first.' },
    });
    expect(ran).toBe(0);
    signedIn = true;
    expect(await invoke('listSessions', [])).toEqual({ ok: true, value: null });
  });

  it("the real services refuse a technician's methods to nobody, and answer the others", async () => {
    const app = makeServices();
    disposals.push(app.dispose);
    expect(await app.services.invoke('listSessions', [{}])).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: 'Sign in to a site first.' },
    });
    expect(await app.services.invoke('listQuizAttempts', [{}])).toMatchObject({ error: { code: 'unauthorized' } });
    expect(await app.services.invoke('getStatus', [])).toMatchObject({ ok: true, value: { user: null } });
    expect(await app.services.invoke('noSuchMethod', [])).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Every method of the contract is declared once and reachable through the services.
    expect(Object.keys(app.services.api).sort()).toEqual([...APP_METHODS].sort());
    expect(new Set(APP_METHODS).size).toBe(APP_METHODS.length);
  });

  it('a transition is accepted as an argument exactly when the transition table has it', () => {
    const input = worklogMethods.transitionSession.input;
    const sessionId = randomUUID();
    for (const transition of Object.keys(TRANSITION_TABLE)) {
      expect(input.safeParse([{ sessionId, transition }]).success).toBe(true);
    }
    for (const transition of ['start', 'stepData', 'Pause', '']) {
      expect(input.safeParse([{ sessionId, transition }]).success).toBe(false);
    }
  });
});
