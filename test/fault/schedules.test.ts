import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFault, cutLength, type Fault, type Schedule } from './faults.ts';
import { failFirst, onPaths, sequence } from './schedules.ts';
import { mulberry32, perRequestSchedule, seededSchedule } from './seeded.ts';

const get = (seq: number, path = '/api/2.0/guides') => ({ seq, method: 'GET', path });
const run = (schedule: Schedule, paths: readonly string[]): Fault[] =>
  paths.map((path, i) => schedule(get(i + 1, path)));
const kinds = (faults: readonly Fault[]) => faults.map((fault) => fault.kind);
const many = (n: number, path = '/api/2.0/guides') => Array.from({ length: n }, () => path);

describe('mulberry32', () => {
  it('gives the same stream for a seed, a different one for another seed, within [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const first = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(first);
    expect(Array.from({ length: 100 }, () => c())).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('seededSchedule', () => {
  const rates = { reset: 0.1, status: 0.15, delay: 0.1, cutBody: 0.1, stall: 0.05, dropResponse: 0.1, resetIdle: 0.05 };

  it('is deterministic for a seed: same faults, same parameters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        expect(run(seededSchedule(seed, { rates }), many(60))).toEqual(run(seededSchedule(seed, { rates }), many(60)));
      }),
      { numRuns: 50 },
    );
  });

  it('differs between seeds and uses every kind it has a rate for', () => {
    const a = run(seededSchedule(1, { rates }), many(400));
    const b = run(seededSchedule(2, { rates }), many(400));
    expect(kinds(a)).not.toEqual(kinds(b));
    expect(new Set(kinds(a))).toEqual(new Set(['pass', ...Object.keys(rates)]));
  });

  it('roughly follows the rates', () => {
    const faults = run(seededSchedule(99, { rates: { status: 0.3 } }), many(2000));
    const share = faults.filter((fault) => fault.kind === 'status').length / faults.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });

  it('leaves paths outside onlyPaths alone, without advancing the generator', () => {
    const onlyPaths = /\/guides/;
    const plain = run(seededSchedule(5, { rates, onlyPaths }), many(40));
    const paths = many(40).flatMap((path) => [path, '/api/2.0/user']);
    const mixed = run(seededSchedule(5, { rates, onlyPaths }), paths);
    expect(mixed.filter((_, i) => i % 2 === 1).every((fault) => fault.kind === 'pass')).toBe(true);
    expect(mixed.filter((_, i) => i % 2 === 0)).toEqual(plain);
  });

  it('stops after maxFaults, and the faults before that are the unlimited ones', () => {
    const unlimited = run(seededSchedule(3, { rates: { reset: 0.5 } }), many(50));
    const capped = run(seededSchedule(3, { rates: { reset: 0.5 }, maxFaults: 4 }), many(50));
    expect(capped.filter((fault) => fault.kind !== 'pass')).toHaveLength(4);
    const fourth = unlimited.findIndex(
      (_, i) => unlimited.slice(0, i + 1).filter((f) => f.kind !== 'pass').length === 4,
    );
    expect(capped.slice(0, fourth + 1)).toEqual(unlimited.slice(0, fourth + 1));
  });

  it('draws statuses from the list, with Retry-After on 429 and 503 when asked', () => {
    const faults = run(
      seededSchedule(11, { rates: { status: 1 }, statuses: [503, 429, 500], retryAfterSeconds: 2 }),
      many(100),
    );
    for (const fault of faults) {
      expect(fault.kind).toBe('status');
      if (fault.kind !== 'status') continue;
      expect([503, 429, 500]).toContain(fault.status);
      expect(fault.retryAfter).toBe(fault.status === 500 ? undefined : 2);
    }
    expect(new Set(faults.map((fault) => (fault.kind === 'status' ? fault.status : 0)))).toEqual(
      new Set([503, 429, 500]),
    );
  });

  it('rejects rates that make no sense', () => {
    expect(() => seededSchedule(1, { rates: { reset: 0.6, status: 0.6 } })).toThrow(/sum/);
    expect(() => seededSchedule(1, { rates: { reset: -0.1 } })).toThrow(/reset/);
    expect(() => seededSchedule(1, { rates: { status: 0.1 }, statuses: [] })).toThrow(/statuses/);
  });
});

describe('perRequestSchedule', () => {
  const rates = { reset: 0.2, status: 0.2, cutBody: 0.2, dropResponse: 0.1 };
  const requests = Array.from({ length: 30 }, (_, i) => [{ method: 'GET', path: `/api/2.0/guides/${i % 10}` }]).flat();

  it('gives each method, path and occurrence the same fault, whatever the arrival order', () => {
    const byIdentity = (order: readonly number[], seed: number) => {
      const schedule = perRequestSchedule(seed, { rates });
      const occurrences = new Map<string, number>();
      const out = new Map<string, Fault>();
      for (const index of order) {
        const request = requests[index]!;
        const n = (occurrences.get(request.path) ?? 0) + 1;
        occurrences.set(request.path, n);
        out.set(`${request.path}#${n}`, schedule({ seq: 0, ...request }));
      }
      return out;
    };
    const inOrder = byIdentity(
      requests.map((_, i) => i),
      8,
    );
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          requests.map((_, i) => i),
          { minLength: requests.length },
        ),
        (order) => {
          expect(byIdentity(order, 8)).toEqual(inOrder);
        },
      ),
      { numRuns: 50 },
    );
    expect([
      ...byIdentity(
        requests.map((_, i) => i),
        9,
      ).values(),
    ]).not.toEqual([...inOrder.values()]);
  });

  it('fails one method and path at most maxFailuresPerRequest times, and keys on the method too', () => {
    const schedule = perRequestSchedule(1, { rates: { reset: 1 }, maxFailuresPerRequest: 3 });
    const gets = Array.from({ length: 6 }, () => schedule(get(0, '/api/2.0/work_log')));
    expect(kinds(gets)).toEqual(['reset', 'reset', 'reset', 'pass', 'pass', 'pass']);
    expect(schedule({ seq: 0, method: 'POST', path: '/api/2.0/work_log' }).kind).toBe('reset');
  });

  it('leaves other paths and methods alone', () => {
    const schedule = perRequestSchedule(1, { rates: { reset: 1 }, onlyPaths: /work_log/, method: 'POST' });
    expect(schedule({ seq: 0, method: 'GET', path: '/api/2.0/work_log' }).kind).toBe('pass');
    expect(schedule({ seq: 0, method: 'POST', path: '/api/2.0/user/token' }).kind).toBe('pass');
    expect(schedule({ seq: 0, method: 'POST', path: '/api/2.0/work_log' }).kind).toBe('reset');
  });
});

describe('counting schedules', () => {
  it('failFirst fails the first n matching requests only', () => {
    const schedule = failFirst(2, { kind: 'reset' }, { paths: /work_log/, method: 'POST' });
    const requests = [
      { seq: 1, method: 'GET', path: '/api/2.0/work_log' },
      { seq: 2, method: 'POST', path: '/api/2.0/work_log' },
      { seq: 3, method: 'POST', path: '/api/2.0/user/token' },
      { seq: 4, method: 'post', path: '/api/2.0/work_log' },
      { seq: 5, method: 'POST', path: '/api/2.0/work_log' },
    ];
    expect(kinds(requests.map(schedule))).toEqual(['pass', 'reset', 'pass', 'reset', 'pass']);
  });

  it('sequence hands out its list in order, then passes; onPaths filters before the inner schedule', () => {
    const inner = sequence([{ kind: 'reset' }, { kind: 'status', status: 503 }]);
    const schedule = onPaths(/\/guides/g, inner);
    const faults = run(schedule, [
      '/api/2.0/guides',
      '/api/2.0/user',
      '/api/2.0/guides',
      '/api/2.0/guides',
      '/api/2.0/guides?x',
    ]);
    expect(kinds(faults)).toEqual(['reset', 'pass', 'status', 'pass', 'pass']);
  });
});

describe('checkFault', () => {
  const limits = { maxDelayMs: 1000, maxStallMs: 500 };
  it('caps durations and fills in the stall default', () => {
    expect(checkFault({ kind: 'delay', ms: 5000 }, limits)).toEqual({ kind: 'delay', ms: 1000 });
    expect(checkFault({ kind: 'stall' }, limits)).toEqual({ kind: 'stall', ms: 500 });
    expect(checkFault({ kind: 'resetIdle', then: { kind: 'stall', ms: 9999 } }, limits)).toEqual({
      kind: 'resetIdle',
      then: { kind: 'stall', ms: 500 },
    });
  });
  it('rejects faults that would not mean anything', () => {
    expect(() => checkFault({ kind: 'status', status: 200 }, limits)).toThrow(/status/);
    expect(() => checkFault({ kind: 'delay', ms: -1 }, limits)).toThrow();
    expect(() => checkFault({ kind: 'delay', ms: Number.NaN }, limits)).toThrow();
    expect(() => checkFault({ kind: 'cutBody', fraction: 1 }, limits)).toThrow(/fraction/);
    expect(() => checkFault({ kind: 'nope' } as unknown as Fault, limits)).toThrow(/unknown/);
  });
  it('cuts always leave at least one byte out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.option(fc.double({ min: 0, max: 0.999, noNaN: true })),
        fc.option(fc.nat()),
        (total, fraction, bytes) => {
          const fault: Fault = {
            kind: 'cutBody',
            ...(fraction !== null ? { fraction } : {}),
            ...(bytes !== null ? { bytes } : {}),
          };
          const keep = cutLength(fault, total);
          expect(keep).toBeGreaterThanOrEqual(0);
          expect(keep).toBeLessThan(total);
        },
      ),
    );
  });
});
