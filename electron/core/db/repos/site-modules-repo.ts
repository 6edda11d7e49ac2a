import { SITE_MODULES, type ModuleState, type SiteCapabilities, type SiteModule } from '../../../contract.ts';
import type { ModuleAnswer, ModuleVia } from '../../api/capabilities-api.ts';
import type { Db } from '../open.ts';
import { replaceableWrite, sql } from '../statements.ts';

/** What each module of a site answered when last asked (migration 0008). */
export class SiteModulesRepo {
  /**
   * What was last read, per site: the sync asks whether the site offers a module for every guide it
   * stores. Only this repo writes the table, in the one process that holds the data folder's lock.
   */
  readonly #read = new Map<string, Readonly<SiteCapabilities>>();
  readonly #via = new Map<string, Map<string, ModuleVia>>();

  constructor(private readonly db: Db) {}

  of(site: string): Readonly<SiteCapabilities> {
    const known = this.#read.get(site);
    if (known) return known;
    const read = this.#select(site);
    Object.freeze(read.modules);
    // Not what a transaction that may still roll back shows.
    if (!this.db.inTransaction) this.#read.set(site, Object.freeze(read));
    return read;
  }

  #select(site: string): SiteCapabilities {
    const rows = sql(this.db, 'SELECT module, state, checked_at FROM site_modules WHERE site = ?').all(site) as {
      module: string;
      state: ModuleState;
      checked_at: number;
    }[];
    const modules = Object.fromEntries(SITE_MODULES.map((m) => [m, 'unknown'])) as Record<SiteModule, ModuleState>;
    let checkedAt: number | null = null;
    for (const row of rows) {
      if ((SITE_MODULES as readonly string[]).includes(row.module)) modules[row.module as SiteModule] = row.state;
      checkedAt = Math.max(checkedAt ?? 0, row.checked_at);
    }
    return { modules, checkedAt };
  }

  /** Records answers; an `unknown` (no answer) never replaces what the site said before. */
  record(site: string, answers: ReadonlyMap<SiteModule, ModuleAnswer>, at: number): void {
    const upsert = sql(
      this.db,
      `INSERT INTO site_modules (site, module, state, status, checked_at, via) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(site, module) DO UPDATE SET
         state = CASE WHEN excluded.state = 'unknown' THEN site_modules.state ELSE excluded.state END,
         status = CASE WHEN excluded.state = 'unknown' THEN site_modules.status ELSE excluded.status END,
         via = CASE WHEN excluded.state = 'unknown' THEN site_modules.via ELSE excluded.via END,
         checked_at = excluded.checked_at`,
    );
    this.#read.delete(site);
    this.#via.delete(site);
    // The site's answers, which it gives again: the commit does not wait for the disk.
    replaceableWrite(this.db, () => {
      for (const [module, { state, status, via }] of answers) upsert.run(site, module, state, status, at, via ?? null);
    });
  }

  /** The endpoint the site answered a module at, where the dialects differ (capabilities-api.ts); null: not known. */
  via(site: string, module: SiteModule): ModuleVia | null {
    let known = this.#via.get(site);
    if (!known) {
      const select = sql(this.db, 'SELECT module, via FROM site_modules WHERE site = ? AND via IS NOT NULL');
      const rows = select.all(site) as { module: string; via: ModuleVia }[];
      known = new Map(rows.map((row) => [row.module, row.via]));
      if (!this.db.inTransaction) this.#via.set(site, known);
    }
    return known.get(module) ?? null;
  }

  /** The site answered a module at another endpoint than the one known (a 404 there, an answer here). */
  setVia(site: string, module: SiteModule, via: ModuleVia, at: number): void {
    this.record(site, new Map([[module, { state: 'offered', status: 200, via }]]), at);
  }

  /** One module learned missing mid-sync (a guide's part answered 404): kept without a new probe. */
  missing(site: string, module: SiteModule, status: number, at: number): void {
    this.record(site, new Map([[module, { state: 'missing', status }]]), at);
  }

  forget(site: string): void {
    this.#read.delete(site);
    this.#via.delete(site);
    sql(this.db, 'DELETE FROM site_modules WHERE site = ?').run(site);
  }
}
