import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/core/db/migrations/index.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { seedCount } from '../helpers/seeds.ts';

// Starting on a data folder (issue 24, item 10): two copies started at the same instant on a fresh folder
// end with one of them holding it, never with both refused; a database of a newer version is refused
// with its files exactly as they were (its log not folded into it).
const root = path.resolve(import.meta.dirname, '../..');
const RACES = seedCount(20, 4);

interface Racer {
  proc: ChildProcessWithoutNullStreams;
  next: () => Promise<string>;
}

function racer(): Racer {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/helpers/race-child.ts')], {
    cwd: root,
    stdio: 'pipe',
  });
  const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  return {
    proc,
    next: async () => {
      for (;;) {
        const { value, done } = await lines.next();
        if (done) throw new Error('the racer ended');
        if (value.startsWith('won ') || value.startsWith('refused ')) return value as string;
      }
    },
  };
}

let racers: Racer[] = [];
beforeAll(() => {
  racers = [racer(), racer()];
});
afterAll(() => {
  for (const { proc } of racers) proc.kill('SIGKILL');
});

describe('two starts on a fresh folder at the same instant', () => {
  it(
    `leave one copy holding it at a time, and never refuse each other (${RACES} races)`,
    { timeout: 180_000 },
    async () => {
      const outcomes: string[] = [];
      for (let race = 0; race < RACES; race++) {
        const dir = makeTempDir(`race-${race}`);
        try {
          // Far enough ahead for both to be waiting (the first race waits for the racers to load).
          const at = Date.now() + (race === 0 ? 8000 : 400);
          for (const { proc } of racers) proc.stdin.write(`race ${dir.dir} ${at} 150\n`);
          const [a, b] = await Promise.all(racers.map((r) => r.next()));
          outcomes.push(`${a!.split(' ')[0]}/${b!.split(' ')[0]}`);
          expect(
            [a, b].filter((o) => o!.startsWith('won')),
            `race ${race}: ${a} | ${b}`,
          ).not.toHaveLength(0);
          const held = [a, b]
            .filter((o) => o!.startsWith('won'))
            .map((o) => o!.split(' ').slice(1).map(Number) as [number, number]);
          if (held.length === 2) {
            const [[openA, closeA], [openB, closeB]] = held as [[number, number], [number, number]];
            expect(openA >= closeB || openB >= closeA, `race ${race}: both held the folder at once`).toBe(true);
          }
          for (const o of [a, b]) if (o!.startsWith('refused')) expect(o).toContain('already running');
          const db = new Database(path.join(dir.dir, 'fieldguide.sqlite'), { readonly: true });
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
          db.close();
        } finally {
          dir.remove();
        }
      }
      expect(outcomes).toHaveLength(RACES);
    },
  );
});

describe('a database of a newer version', () => {
  it('is refused with its file and its log exactly as they were', () => {
    const dir = makeTempDir('newer');
    try {
      const file = path.join(dir.dir, 'fieldguide.sqlite');
      // A newer version's database as a crash leaves it: changes still in its log, the newer version in it.
      const newer = new Database(file);
      newer.pragma('journal_mode = WAL');
      newer.pragma('wal_autocheckpoint = 0');
      newer.exec('CREATE TABLE kept (x TEXT); INSERT INTO kept VALUES (1)');
      newer.pragma(`user_version = ${MIGRATIONS.length + 3}`);
      newer.exec('INSERT INTO kept VALUES (2)');
      for (const suffix of ['', '-wal']) fs.copyFileSync(file + suffix, `${file}.copy${suffix}`);
      newer.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      for (const suffix of ['', '-wal']) fs.renameSync(`${file}.copy${suffix}`, file + suffix);
      const before = ['', '-wal'].map((suffix) => fs.readFileSync(file + suffix));
      expect(before[1]!.length).toBeGreaterThan(0);

      expect(() => makeServices(dir.dir)).toThrow(`was written by a newer Fieldguide (schema ${MIGRATIONS.length + 3}`);
      expect(['', '-wal'].map((suffix) => fs.readFileSync(file + suffix))).toEqual(before);
      expect(fs.existsSync(`${file}-shm`), 'no index made beside it').toBe(false);
    } finally {
      dir.remove();
    }
  });
});
