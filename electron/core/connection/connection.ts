import { z } from 'zod';
import type { AppStatus, NetworkState, SiteInfo, UserSummary } from '../../contract.ts';
import { fetchCurrentUser, requestToken, revokeToken } from '../api/auth.ts';
import { ApiError } from '../api/errors.ts';
import { ApiTransport } from '../api/transport.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import type { EventHub } from '../events.ts';
import { AppFailure } from '../result.ts';
import { connectFailure } from './connect-failure.ts';
import type { DemoLauncher } from './demo-launcher.ts';
import type { FileSecretStore } from './secret-store.ts';

const siteSetting = z.object({ url: z.string(), demo: z.boolean() });
const userSetting = z.object({
  userid: z.number(),
  username: z.string(),
  uniqueUsername: z.string().nullable(),
  privileges: z.array(z.string()),
  imageUrl: z.string().nullable(),
});

export interface ConnectionDeps {
  settings: SettingsRepo;
  secrets: FileSecretStore;
  /** The app's version, for the status. */
  version: string;
  /** Where `status` and `network` events go. */
  events: EventHub;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Told the site's clock with each answer (connection/server-clock.ts). */
  onServerTime?: (serverSeconds: number) => void;
}

/** How often the site is asked whether it can be reached. */
const HEARTBEAT_MS = 30_000;

/**
 * The site this app works with, the signed-in user, the token and whether the site can be reached. The
 * token is read from the secret store into a transport and goes nowhere else: not into settings, not
 * into events, not into logs.
 */
export class Connection {
  #site: SiteInfo | null;
  #user: UserSummary | null;
  #transport: ApiTransport | null = null;
  #network: NetworkState = 'unknown';
  /** The sign-in waiting for a site's answer, which Cancel stops. */
  #attempt: AbortController | null = null;
  readonly #onOnline = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: ConnectionDeps) {
    this.#site = deps.settings.get('site', siteSetting) ?? null;
    this.#user = deps.settings.get('user', userSetting) ?? null;
    const token = deps.secrets.read();
    if (this.#site && token) this.#transport = this.#makeTransport(this.#site.url, token, true);
    if (!token) this.#user = null;
    // Whether the site can be reached, asked every half minute: the status bar says "Offline" soon after
    // the network goes, not only when the next sync fails; its return starts a sync and the outbox.
    this.#heartbeat = setInterval(() => {
      if (this.#user) void this.refresh().catch(() => undefined);
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  status(): AppStatus {
    return { version: this.deps.version, site: this.#site, user: this.#user, network: this.#network };
  }

  get site(): SiteInfo | null {
    return this.#site;
  }
  get user(): UserSummary | null {
    return this.#user;
  }
  get network(): NetworkState {
    return this.#network;
  }

  isAdmin(): boolean {
    return this.#user?.privileges.includes('Admin') ?? false;
  }

  /** The signed-in transport, or null when nobody is signed in (the outbox then waits). */
  signedInTransport(): ApiTransport | null {
    return this.#user ? this.transport() : null;
  }

  /** Runs `listener` each time the site can be reached again (after the `network` and `status` events). */
  onOnline(listener: () => void): void {
    this.#onOnline.add(listener);
  }

  /** The signed-in transport, for the modules that talk to the site. */
  transport(): ApiTransport {
    if (!this.#transport) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return this.#transport;
  }

  /** Points the stored site at a new address (the demo workshop gets a new port each start). */
  relocate(url: string): void {
    if (!this.#site) return;
    this.#site = { ...this.#site, url };
    this.deps.settings.set('site', this.#site);
    const token = this.deps.secrets.read();
    this.#transport = token ? this.#makeTransport(url, token, true) : null;
  }

  async signIn(siteUrl: string, email: string, password: string, demo = false): Promise<void> {
    const anonymous = this.#makeTransport(siteUrl, null);
    const { token, user } = await this.#call((signal) => requestToken(anonymous, email, password, signal), siteUrl, 'sign-in');
    this.#adopt({ url: siteUrl, demo }, token, user);
  }

  async connectWithToken(siteUrl: string, token: string): Promise<void> {
    const transport = this.#makeTransport(siteUrl, token);
    const user = await this.#call((signal) => fetchCurrentUser(transport, signal), siteUrl, 'token');
    this.#adopt({ url: siteUrl, demo: false }, token, user);
  }

  /** Stops the sign-in waiting for an answer (a site that hangs): it fails with `cancelled`, nothing changes. */
  cancelConnect(): void {
    this.#attempt?.abort();
  }

  /** Forgets the token and user locally; tells the site when it can be reached (best effort). */
  async signOut(): Promise<void> {
    const transport = this.#transport;
    this.#transport = null;
    this.#user = null;
    this.deps.secrets.clear();
    this.deps.settings.delete('user');
    this.#changed();
    if (transport) {
      try {
        await revokeToken(transport);
        this.setNetwork('online');
      } catch (error) {
        if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) this.setNetwork('offline');
      }
    }
  }

  /** Asks the site who we are: refreshes the user and the network state; a 401 signs out locally. */
  async refresh(): Promise<void> {
    if (!this.#transport) return;
    try {
      const user = await fetchCurrentUser(this.#transport);
      this.#user = user;
      this.deps.settings.set('user', user);
      this.setNetwork('online');
      this.#changed();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.kind === 'network' || error.kind === 'timeout') this.setNetwork('offline');
      else if (error.kind === 'http' && error.status === 401) await this.signOut();
      else this.setNetwork('online');
    }
  }

  setNetwork(state: NetworkState): void {
    if (state === this.#network) return;
    this.#network = state;
    this.deps.events.emit('network', state);
    this.#changed();
    if (state === 'online') for (const listener of this.#onOnline) listener();
  }

  /** The shell's own network hint (Electron's `net.isOnline()`). "Online" is weak: the site itself is asked. */
  hint(online: boolean): void {
    if (online) void this.refresh().catch(() => undefined);
    else this.setNetwork('offline');
  }

  /** At start-up: the demo workshop gets its new address, then the site is asked who we are. Answers whether it can be reached. */
  async reconnect(demo: DemoLauncher): Promise<boolean> {
    if (this.#site?.demo) this.relocate((await demo.site()).url);
    await this.refresh();
    return this.#network === 'online';
  }

  close(): void {
    clearInterval(this.#heartbeat);
  }

  #changed(): void {
    this.deps.events.emit('status', this.status());
  }

  #adopt(site: SiteInfo, token: string, user: UserSummary): void {
    this.deps.secrets.write(token);
    this.deps.settings.set('site', site);
    this.deps.settings.set('user', user);
    this.#site = site;
    this.#user = user;
    this.#transport = this.#makeTransport(site.url, token, true);
    this.setNetwork('online');
    this.#changed();
  }

  /**
   * A transport to `siteUrl`. The signed-in one (`inUse`) also tells the network state: any answer from
   * the site in use means it can be reached again, so the outbox and a sync wake at once.
   */
  #makeTransport(siteUrl: string, token: string | null, inUse = false): ApiTransport {
    const { fetch, timeoutMs, onServerTime } = this.deps;
    return new ApiTransport({
      siteUrl, token, ...(fetch ? { fetch } : {}), ...(timeoutMs ? { timeoutMs } : {}),
      onServerTime: (seconds) => {
        onServerTime?.(seconds);
        if (inUse && this.#network === 'offline' && this.#user && this.#site?.url === siteUrl) this.setNetwork('online');
      },
    });
  }


  /**
   * Runs a connect call (Cancel stops it) and explains its failure. Only the site already in use says
   * anything about the network: a mistyped new address is a wrong address, not "offline".
   */
  async #call<T>(run: (signal: AbortSignal) => Promise<T>, siteUrl: string, how: 'sign-in' | 'token'): Promise<T> {
    this.#attempt?.abort();
    const attempt = new AbortController();
    this.#attempt = attempt;
    try {
      return await run(attempt.signal);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const failure = connectFailure(error, siteUrl, how);
      if (this.#site?.url === siteUrl && failure.code !== 'cancelled') this.setNetwork(failure.code === 'offline' ? 'offline' : 'online');
      throw failure;
    } finally {
      if (this.#attempt === attempt) this.#attempt = null;
    }
  }
}
