import type { SiteCapabilities, SiteModule } from '../../contract.ts';
import { probeModules, type ModuleVia } from '../api/capabilities-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { SiteModulesRepo } from '../db/repos/site-modules-repo.ts';

/** How long what a site said of its modules is trusted before it is asked again (at the next sync). */
export const MODULES_FRESH_SECONDS = 6 * 60 * 60;
/**
 * How long an answer that settled nothing (a 5xx, a network error, step forms of a site that listed no
 * guide yet, members only while someone is signed in) waits before the site is asked again: not at every
 * sync, as a site that keeps answering so would otherwise be asked seven questions each time.
 */
export const UNSETTLED_RETRY_SECONDS = 10 * 60;

/** Modules that are somebody's: of no use without an account. */
export const ACCOUNT_MODULES: ReadonlySet<SiteModule> = new Set(['work_log', 'quizzes', 'user_media']);

/**
 * What the current site offers: asked on connecting and again now and then (at a sync once the answers
 * are older than MODULES_FRESH_SECONDS), never per guide; kept per site, with the endpoint a module
 * answered at where the two dialects of API 2.0 differ (search, uploads). A module a guide's part shows
 * missing mid-sync (404) is recorded at once, unless the site's fresh answer said it has it (`lacks`).
 */
export class SiteModules {
  #stale = true;

  constructor(
    private readonly deps: {
      repo: SiteModulesRepo;
      /** The current site's address, or null. */
      site: () => string | null;
      now: () => number;
      /** Told when what is known changed (the status carries it). */
      changed: () => void;
    },
  ) {}

  capabilities(): SiteCapabilities | null {
    const site = this.deps.site();
    if (site === null) return null;
    const known = this.deps.repo.of(site);
    return this.deps.repo.via(site, 'user_media') === 'images' ? { ...known, picturesOnly: true } : known;
  }

  /**
   * The sync asks for a module unless the site said it has none, or has it for members only and nobody is
   * signed in. Without an account there is no work log, no quizzes (an attempt is somebody's) and no uploads.
   */
  offers(module: SiteModule, signedIn: boolean): boolean {
    const state = this.capabilities()?.modules[module] ?? 'unknown';
    if (!signedIn && ACCOUNT_MODULES.has(module)) return false;
    return state !== 'missing' && (signedIn || state !== 'sign_in');
  }

  /** The endpoint the current site answers a module at, where the dialects differ; null: not learned yet. */
  via(module: SiteModule): ModuleVia | null {
    const site = this.deps.site();
    return site === null ? null : this.deps.repo.via(site, module);
  }

  /** The site answered a module at `via` (the endpoint known before answered 404): kept for next time. */
  answeredAt(module: SiteModule, via: ModuleVia): void {
    const site = this.deps.site();
    if (site === null || this.deps.repo.via(site, module) === via) return;
    this.deps.repo.setVia(site, module, via, this.deps.now());
    this.deps.changed();
  }

  /** Ask again at the next sync (a new connection, a sign-in). */
  invalidate(): void {
    this.#stale = true;
  }

  /**
   * Someone signed in (or switched in): what the site answered "members only" (or left unknown) is asked again at
   * the next sync. Heard while a refused token was the only one (a day-two walk), it hid the work log for 10
   * minutes from the technician who had just signed in again; a switch on a settled site asks nothing more.
   */
  signedIn(): void {
    const site = this.deps.site();
    if (site === null) return;
    const { modules } = this.deps.repo.of(site);
    if (Object.values(modules).some((state) => state === 'sign_in' || state === 'unknown')) this.#stale = true;
  }

  /**
   * Asks the site when what is known is old, or told to (a new connection, a sign-in); what left a module
   * unknown, or members only while someone is signed in, is asked again once UNSETTLED_RETRY_SECONDS passed.
   */
  async refreshIfStale(
    transport: ApiTransport,
    guideid: number | null,
    signedIn: boolean,
    signal?: AbortSignal,
  ): Promise<void> {
    const site = this.deps.site();
    if (site === null) return;
    const { checkedAt, modules } = this.deps.repo.of(site);
    const age = checkedAt === null ? Infinity : this.deps.now() - checkedAt;
    const unsettled = Object.values(modules).some((state) => state === 'unknown' || (signedIn && state === 'sign_in'));
    if (!this.#stale && age < (unsettled ? UNSETTLED_RETRY_SECONDS : MODULES_FRESH_SECONDS)) return;
    const answers = await probeModules(transport, guideid, signal);
    if (signal?.aborted) return;
    this.deps.repo.record(site, answers, this.deps.now());
    this.#stale = false;
    this.deps.changed();
  }

  /**
   * A guide's part answered as lacking. When the site's own answer to the probe, still fresh, said it has
   * the module, one guide's 404 is that guide's (a part it has none of), not the site's: the module stays
   * offered and is asked about again at the next sync. Otherwise the module is recorded missing at once.
   */
  lacks(module: SiteModule, status: number): void {
    const site = this.deps.site();
    const known = site === null ? null : this.deps.repo.of(site);
    if (site === null || known?.modules[module] === 'missing') return;
    if (
      known?.modules[module] === 'offered' &&
      known.checkedAt !== null &&
      this.deps.now() - known.checkedAt < MODULES_FRESH_SECONDS
    ) {
      this.#stale = true;
      return;
    }
    this.deps.repo.missing(site, module, status, this.deps.now());
    this.deps.changed();
  }
}
