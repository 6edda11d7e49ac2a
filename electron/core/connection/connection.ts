import { z } from 'zod';
import type { AppStatus, NetworkState, SiteInfo, UserSummary } from '../../contract.ts';
import { fetchCurrentUser, requestToken, revokeToken } from '../api/auth.ts';
import { ApiError, toAppFailure } from '../api/errors.ts';
import { ApiTransport } from '../api/transport.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import type { EventHub } from '../events.ts';
import { AppFailure } from '../result.ts';
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
  readonly #onOnline = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: ConnectionDeps) {
    this.#site = deps.settings.get('site', siteSetting) ?? null;
    this.#user = deps.settings.get('user', userSetting) ?? null;
    const token = deps.secrets.read();
    if (this.#site && token) this.#transport = this.#makeTransport(this.#site.url, token);
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
    this.#transport = token ? this.#makeTransport(url, token) : null;
  }

  async signIn(siteUrl: string, email: string, password: string, demo = false): Promise<void> {
    const anonymous = this.#makeTransport(siteUrl, null);
    const { token, user } = await this.#call(() => requestToken(anonymous, email, password), siteUrl, 'sign-in');
    this.#adopt({ url: siteUrl, demo }, token, user);
  }

  async connectWithToken(siteUrl: string, token: string): Promise<void> {
    const transport = this.#makeTransport(siteUrl, token);
    const user = await this.#call(() => fetchCurrentUser(transport), siteUrl, 'token');
    this.#adopt({ url: siteUrl, demo: false }, token, user);
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
    this.#transport = this.#makeTransport(site.url, token);
    this.setNetwork('online');
    this.#changed();
  }

  #makeTransport(siteUrl: string, token: string | null): ApiTransport {
    return new ApiTransport({
      siteUrl,
      token,
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
      ...(this.deps.timeoutMs ? { timeoutMs: this.deps.timeoutMs } : {}),
      ...(this.deps.onServerTime ? { onServerTime: this.deps.onServerTime } : {}),
    });
  }

  /** Runs a connect call and explains its failure in a technician's words. */
  async #call<T>(run: () => Promise<T>, siteUrl: string, how: 'sign-in' | 'token'): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.kind === 'network' || error.kind === 'timeout') {
        this.setNetwork('offline');
        throw toAppFailure(error);
      }
      this.setNetwork('online');
      if (error.kind === 'http' && error.status === 401) {
        throw new AppFailure(
          'unauthorized',
          how === 'sign-in' ? 'The site refused the e-mail and password.' : 'The site refused this API token.',
          { resource: error.resource, status: 401 },
          { cause: error },
        );
      }
      if (error.kind === 'bad_response' || (error.kind === 'http' && (error.status === 404 || error.status === 405))) {
        throw new AppFailure(
          'not_found',
          `No Dozuki API 2.0 answers at ${siteUrl}: check the site address.`,
          { resource: error.resource, ...(error.status ? { status: error.status } : {}) },
          { cause: error },
        );
      }
      throw toAppFailure(error);
    }
  }
}
