import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DatabaseTooNewError, migrate, openDatabase } from '../../electron/core/db/open.ts';
import { MIGRATIONS } from '../../electron/core/db/migrations/index.ts';
import { SettingsRepo } from '../../electron/core/db/repos/settings-repo.ts';
import { replaceableWrite } from '../../electron/core/db/statements.ts';
import { makeTempDir } from '../helpers/tmp.ts';

let tmp: ReturnType<typeof makeTempDir>;
beforeEach(() => (tmp = makeTempDir('db')));
afterEach(() => tmp.remove());

describe('the local database', () => {
  it('opens with WAL, synchronous=FULL, foreign keys and the latest schema', () => {
    const db = openDatabase(path.join(tmp.dir, 'a.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('commits library writes without waiting for the disk, and everything else with it', () => {
    const db = openDatabase(path.join(tmp.dir, 'a.sqlite'));
    const settings = new SettingsRepo(db);
    const seen = replaceableWrite(db, () => {
      settings.set('library.note', 'x');
      // Nested: stays in the outer transaction and its setting.
      return [
        db.pragma('synchronous', { simple: true }),
        replaceableWrite(db, () => db.pragma('synchronous', { simple: true })),
      ];
    });
    expect(seen).toEqual([1, 1]);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(() =>
      replaceableWrite(db, () => {
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(settings.get('library.note', z.string())).toBe('x');
    db.close();
  });

  it('refuses a database written by a newer app, without changing it', () => {
    const file = path.join(tmp.dir, 'newer.sqlite');
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    const again = new Database(file);
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 5);
    again.close();
  });

  it('rolls a failing migration back whole and keeps the version it had', () => {
    const db = new Database(path.join(tmp.dir, 'fail.sqlite'));
    const broken = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: 'broken',
        up: (d: Database.Database) => {
          d.exec('CREATE TABLE half_done (x INTEGER) STRICT');
          d.exec('THIS IS NOT SQL');
        },
      },
    ];
    expect(() => migrate(db, 'fail.sqlite', broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('reads a corrupt setting as absent and reports it', () => {
    const db = openDatabase(path.join(tmp.dir, 's.sqlite'));
    const problems: string[] = [];
    const settings = new SettingsRepo(db, (key, problem) => problems.push(`${key}: ${problem}`));
    settings.set('site', { url: 'https://x.test', demo: false });
    expect(settings.get('site', z.object({ url: z.string(), demo: z.boolean() }))).toEqual({
      url: 'https://x.test',
      demo: false,
    });
    db.prepare("UPDATE settings SET value = '{not json' WHERE key = 'site'").run();
    expect(settings.get('site', z.object({ url: z.string() }))).toBeUndefined();
    settings.set('user', { userid: 'seven' });
    expect(settings.get('user', z.object({ userid: z.number() }))).toBeUndefined();
    expect(problems).toEqual(['site: not JSON', expect.stringMatching(/^user: /)]);
    db.close();
  });
});
