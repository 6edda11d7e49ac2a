import { z } from 'zod';
import type { OthersWork, SiteInfo, TechnicianEntry, UserSummary } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import type { TechnicianRow, TechniciansRepo, TechnicianWork } from '../db/repos/technicians-repo.ts';
import type { Credentials } from './credentials.ts';

/** Made once: a zod schema costs more to build than to use. */
const idSchema = z.number().int();

const CURRENT_KEY = 'technicians.current';
const EARLIER_DRAFTS_KEY = 'technicians.earlierDrafts';

/** The library and the technicians are per site: the demo workshop is one site whatever its port. */
export const siteKeyOf = (site: SiteInfo): string => (site.demo ? 'demo' : site.url);
/** How the renderer names a technician (drafts are kept under it): site and userid. */
export const technicianKey = (row: Pick<TechnicianRow, 'site' | 'userid'>): string => `${row.site}|${row.userid}`;

/** Who may read what: the current technician as the library's filters need them. */
export interface Reader {
  userid: number;
  admin: boolean;
}

export interface TechniciansDeps {
  repo: TechniciansRepo;
  settings: SettingsRepo;
  credentials: Credentials;
  /** A transport to the current site with this token. */
  transportWith: (token: string) => ApiTransport;
  now: () => number;
}

/**
 * The technicians of a shared laptop: who works now (the current technician), whose sign-in is kept
 * (their queued work is sent in the background, each under their own token) and whose is not (their
 * work waits for them). One transport per technician, made from their own token only.
 */
export class Technicians {
  readonly #transports = new Map<number, { token: string; transport: ApiTransport }>();

  constructor(private readonly deps: TechniciansDeps) {}

  /** The current technician of `site`: one whose sign-in is kept here. */
  current(site: SiteInfo | null): TechnicianRow | null {
    const id = this.deps.settings.get(CURRENT_KEY, idSchema);
    if (id === undefined || !site) return null;
    const row = this.deps.repo.get(id);
    return row && row.site === siteKeyOf(site) && this.deps.credentials.has(id) ? row : null;
  }

  /**
   * The id the settings name as current, whether or not their sign-in is still kept (the earlier token goes to them).
   */
  currentIdSetting(): number | null {
    return this.deps.settings.get(CURRENT_KEY, idSchema) ?? null;
  }

  get(id: number): TechnicianRow | undefined {
    return this.deps.repo.get(id);
  }

  userOf(row: TechnicianRow): UserSummary {
    return {
      userid: row.userid,
      username: row.username,
      uniqueUsername: row.uniqueUsername,
      privileges: row.privileges,
      imageUrl: row.imageUrl,
    };
  }

  readerOf(row: TechnicianRow | null): Reader | null {
    return row ? { userid: row.userid, admin: row.privileges.includes('Admin') } : null;
  }

  /**
   * Whether this technician was the one signed in when the laptop
   * began recording technicians (their earlier drafts are theirs).
   */
  ownsEarlierDrafts(id: number): boolean {
    return this.deps.settings.get(EARLIER_DRAFTS_KEY, idSchema) === id;
  }

  /** A sign-in the site accepted: their token (and a verifier of the password) kept, and they work now. */
  async signedIn(
    site: SiteInfo,
    user: UserSummary,
    token: string,
    password: { email: string; password: string } | null,
  ): Promise<{ row: TechnicianRow; replaced: string | null }> {
    const id = this.deps.repo.signedIn(siteKeyOf(site), user, password?.email ?? null, this.deps.now());
    const previous = this.deps.credentials.token(id);
    await this.deps.credentials.keep(id, token, password?.password ?? null);
    this.enter(id);
    return { row: this.deps.repo.get(id)!, replaced: previous !== null && previous !== token ? previous : null };
  }

  /** Makes a technician whose sign-in is kept the current one (after their password or token was checked). */
  enter(id: number): void {
    this.deps.settings.set(CURRENT_KEY, id);
  }

  /** Nobody works now (the others' sign-ins stay kept). */
  leave(): void {
    this.deps.settings.delete(CURRENT_KEY);
  }

  /** Forgets one technician's sign-in; answers their token, to revoke on the site. Their work waits for them. */
  signOut(id: number): string | null {
    if (this.currentIdSetting() === id) this.leave();
    // A replay of theirs already under way sends nothing more with it (outbox/runner.ts).
    this.#transports.get(id)?.transport.retire();
    this.#transports.delete(id);
    return this.deps.credentials.forget(id);
  }

  /** The site refused this technician's token: it is forgotten, and their work waits until they sign in again. */
  refused(id: number): void {
    this.signOut(id);
    this.deps.repo.setRefused(id, this.deps.now());
  }

  /**
   * The site's answer to "who am I" with this technician's sign-in, taken when it is them (their name and
   * privileges may have changed). An answer about another user is not taken: false, and the caller forgets
   * the sign-in, whose answers cannot be told from another's (a faulty site, answers mixed up on the way),
   * rather than give this technician another's name or privileges.
   */
  refreshed(id: number, user: UserSummary): boolean {
    if (this.deps.repo.get(id)?.userid !== user.userid) return false;
    this.deps.repo.refreshed(id, user);
    return true;
  }

  /** This technician's own transport, or null when their sign-in is not kept. */
  transportFor(id: number): ApiTransport | null {
    const token = this.deps.credentials.token(id);
    if (token === null) return null;
    const cached = this.#transports.get(id);
    if (cached?.token === token) return cached.transport;
    cached?.transport.retire();
    const transport = this.deps.transportWith(token);
    this.#transports.set(id, { token, transport });
    return transport;
  }

  /** The site moved (the demo workshop's new port): transports are made anew. */
  resetTransports(): void {
    this.#transports.clear();
  }

  /** Technicians of the site whose work can be sent now: their sign-in is kept. */
  sendable(site: SiteInfo | null): number[] {
    if (!site) return [];
    return this.deps.repo
      .ofSite(siteKeyOf(site))
      .filter((row) => this.deps.credentials.has(row.id))
      .map((row) => row.id);
  }

  /** A known technician of the site whose kept token is this one. */
  byToken(site: SiteInfo, token: string): TechnicianRow | undefined {
    return this.deps.repo.ofSite(siteKeyOf(site)).find((row) => this.deps.credentials.tokenMatches(row.id, token));
  }

  byEmail(site: SiteInfo, email: string): TechnicianRow | undefined {
    return this.deps.repo.byEmail(siteKeyOf(site), email);
  }

  /** Whether this technician's token is kept here (their work can go in the background, they can come back offline). */
  signInKept(id: number): boolean {
    return this.deps.credentials.token(id) !== null;
  }

  passwordMatches(id: number, password: string): Promise<boolean> {
    return this.deps.credentials.passwordMatches(id, password);
  }

  /** Everyone who used this laptop for the site (or has work waiting on it), for the switch screen. */
  entries(site: SiteInfo | null): TechnicianEntry[] {
    if (!site) return [];
    const current = this.current(site)?.id ?? null;
    const work = this.#work();
    return this.deps.repo
      .ofSite(siteKeyOf(site))
      .map((row) => ({ row, work: work.get(row.id) }))
      .filter(({ row, work }) => row.signedInAt !== null || (work?.unsent ?? 0) + (work?.conflicts ?? 0) > 0)
      .map(({ row, work }) => ({
        key: technicianKey(row),
        userid: row.userid,
        username: row.username,
        email: row.email,
        current: row.id === current,
        signIn: this.#signInState(row),
        unsent: work?.unsent ?? 0,
        failed: work?.failed ?? 0,
        conflicts: work?.conflicts ?? 0,
      }));
  }

  /** What waits on this laptop for technicians other than the current one: counts only. */
  othersWork(site: SiteInfo | null): OthersWork[] {
    return this.entries(site)
      .filter((entry) => !entry.current && entry.unsent + entry.conflicts > 0)
      .map((entry) => ({
        key: entry.key,
        username: entry.username,
        unsent: entry.unsent,
        conflicts: entry.conflicts,
        signIn: entry.signIn,
      }));
  }

  /** Another site: its technicians (their work forgotten before) and their sign-ins go. */
  forgetOtherSites(site: SiteInfo): void {
    for (const id of this.deps.repo.forgetOtherSites(siteKeyOf(site))) this.signOut(id);
  }

  #signInState(row: TechnicianRow): TechnicianEntry['signIn'] {
    if (this.deps.credentials.has(row.id)) return 'kept';
    return row.refusedAt !== null ? 'refused' : 'signed_out';
  }

  #work(): Map<number, TechnicianWork> {
    return new Map(this.deps.repo.work().map((w) => [w.technician, w]));
  }
}
