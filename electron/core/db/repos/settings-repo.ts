import type { z } from 'zod';
import type { Db } from '../open.ts';

/**
 * Small JSON values by key. A stored value that no longer parses (a hand-edited or corrupt row) reads as
 * absent and is reported through `onCorrupt`, never thrown at the caller.
 */
export class SettingsRepo {
  readonly #get;
  readonly #put;
  readonly #delete;

  constructor(
    db: Db,
    private readonly onCorrupt: (key: string, problem: string) => void = () => {},
  ) {
    this.#get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.#put = db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    this.#delete = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  }

  get<T>(key: string, schema: z.ZodType<T>): T | undefined {
    const row = this.#get.get(key);
    if (!row) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(row.value);
    } catch {
      this.onCorrupt(key, 'not JSON');
      return undefined;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      this.onCorrupt(key, parsed.error.issues[0]?.message ?? 'unexpected shape');
      return undefined;
    }
    return parsed.data;
  }

  set(key: string, value: unknown): void {
    this.#put.run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.#delete.run(key);
  }
}
