import { setMaxListeners } from 'node:events';
import type { AppStatus, NetworkState, SiteInfo, UserSummary } from '../../contract.ts';
import { fetchCurrentUser, requestToken, revokeToken } from '../api/auth.ts';
import { classify, noAnswer } from '../api/failure.ts';
import { siteHttp, type Http } from '../api/http.ts';
import { ApiTransport } from '../api/transport.ts';
import { AppFailure } from '../result.ts';
import { ConnectAttempts } from './connect-failure.ts';
import { checkPublicSite } from './public-site.ts';
import type { DemoLauncher } from './demo-launcher.ts';
import { Reachability } from './reachability.ts';
import { TellOrder } from '../../shared/told.ts';
import { reachabilityHttp } from './reachability-http.ts';
import { appIdFor, keptFor, siteSetting, withMediaOrigin } from './site-record.ts';
import { technicianKey } from './technicians.ts';

import type { ConnectionDeps } from './connection-deps.ts';
export type { ConnectionDeps };

/** How often the site is asked who the current technician is (a token it no longer takes is found). */
const REFRESH_MS = 30_000;

/**
 * The site this app works with, who works on it now (technicians.ts keeps everyone's sign-in) and whether
 * the site can be reached. A token is read from its sealed file into that technician's transport and goes
 * nowhere else: not into settings, not into events, not into logs.
 */
export class Connection {
  #site: SiteInfo | null;
  #network: NetworkState = 'unknown';
  readonly #attempts = new ConnectAttempts();
  /** The transport of a public site read without an account. */
  #anonymous: ApiTransport | null = null;
  readonly #onOnline = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;
  /**
   * Aborted by `close`: every request of every transport made here ends at once (ApiTransport's `closing`).
   * Each request listens to it while it is out: a sync's downloads, the front lane and the outbox's chains
   * together are more than the ten Node warns of (a listener left behind would still show past 1,024).
   */
  readonly #closing = new AbortController();
  /** Whether the site answers, from every request to it and short checks (reachability.ts). */
  readonly #reach = new Reachability({
    probe: (signal) => this.#probe(signal),
    changed: (reachable) => this.#say(reachable ? 'online' : 'offline'),
  });
  #prober: ApiTransport | null = null;
  /** The statuses' order (AppStatus.told). */
  readonly #told = new TellOrder();

  constructor(private readonly deps: ConnectionDeps) {
    this.#site = deps.settings.get('site', siteSetting) ?? null;
    // Who the technician is, asked every half minute (a revoked token is found); whether the site answers
    // is the reachability watch's, which says "Offline" within seconds and starts a sync and the outbox
    // when the site answers again.
    setMaxListeners(1024, this.#closing.signal);
    this.#heartbeat = setInterval(() => {
      if (this.canSync && this.#reach.reachable) void this.refresh().catch(() => undefined);
    }, REFRESH_MS);
    this.#heartbeat.unref();
    this.#reach.enable(this.#watched());
  }

  status(): AppStatus {
    const current = this.deps.technicians.current(this.#site);
    return {
      version: this.deps.version,
      site: this.#site,
      user: current ? this.deps.technicians.userOf(current) : null,
      technician: current
        ? { key: technicianKey(current), earlierDrafts: this.deps.technicians.ownsEarlierDrafts(current.id) }
        : null,
      network: this.#network,
      demoPassword: this.#site?.demo ? (this.deps.demoPassword?.() ?? null) : null,
      capabilities: this.deps.capabilities?.() ?? null,
      siteClockOffset: this.deps.siteClockOffset?.() ?? 0,
      told: this.#told.next(),
    };
  }

  /** Someone is signed in, or the site is a public one read without an account. */
  get canSync(): boolean {
    return this.user !== null || this.#site?.anonymous === true;
  }

  get site(): SiteInfo | null {
    return this.#site;
  }
  /** The current technician, as the site knows them. */
  get user(): UserSummary | null {
    const current = this.deps.technicians.current(this.#site);
    return current ? this.deps.technicians.userOf(current) : null;
  }
  /** The current technician's local id (what their work is recorded under), or null. */
  get technicianId(): number | null {
    return this.deps.technicians.current(this.#site)?.id ?? null;
  }
  get network(): NetworkState {
    return this.#network;
  }

  /** Runs `listener` each time the site can be reached again (after the `network` and `status` events). */
  onOnline(listener: () => void): void {
    this.#onOnline.add(listener);
  }

  /** The current technician's transport, for the modules that talk to the site. */
  transport(): ApiTransport {
    const id = this.technicianId;
    const transport = id === null ? this.#publicTransport() : this.deps.technicians.transportFor(id);
    if (!transport) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return transport;
  }

  #publicTransport = (): ApiTransport | null =>
    this.#site?.anonymous ? (this.#anonymous ??= this.#makeTransport(this.#site.url, null, true)) : null;

  /** A public site by its address alone: its public guides, nobody signed in. Signing in later keeps the library. */
  async connectPublic(siteUrl: string, typedAppId?: string): Promise<void> {
    const appId = appIdFor(this.#site, siteUrl, typedAppId);
    const transport = this.#makeTransport(siteUrl, null, false, appId);
    await this.#call((signal) => checkPublicSite(transport, signal), siteUrl, 'token', appId);
    this.#site = { ...keptFor(this.#site, siteUrl), url: siteUrl, demo: false, anonymous: true, appId };
    this.deps.settings.set('site', this.#site);
    this.#anonymous = null;
    this.setNetwork('online');
    this.#changed();
  }

  /** A transport to the current site with this token (each technician's own, technicians.ts). */
  transportWith(token: string): ApiTransport {
    if (!this.#site) throw new AppFailure('unauthorized', 'Connect to a site first.');
    return this.#makeTransport(this.#site.url, token, true);
  }

  /** Points the stored site at a new address (the demo workshop gets a new port each start). */
  relocate(url: string): void {
    if (!this.#site) return;
    this.#site = { ...this.#site, url };
    this.deps.settings.set('site', this.#site);
    this.deps.technicians.resetTransports();
    this.#anonymous = null;
  }

  async signIn(siteUrl: string, email: string, password: string, demo = false, typedAppId?: string): Promise<void> {
    const appId = appIdFor(this.#site, siteUrl, typedAppId);
    const anonymous = this.#makeTransport(siteUrl, null, false, appId);
    const ask = (signal: AbortSignal) => requestToken(anonymous, email, password, signal);
    const { token, user } = await this.#call(ask, siteUrl, 'sign-in', appId);
    await this.#adopt({ ...keptFor(this.#site, siteUrl), url: siteUrl, demo, appId }, token, user, { email, password });
  }

  async connectWithToken(siteUrl: string, token: string, demo = false, typedAppId?: string): Promise<void> {
    const appId = appIdFor(this.#site, siteUrl, typedAppId);
    const transport = this.#makeTransport(siteUrl, token, false, appId);
    const user = await this.#call((signal) => fetchCurrentUser(transport, signal), siteUrl, 'token', appId);
    await this.#adopt({ ...keptFor(this.#site, siteUrl), url: siteUrl, demo, appId }, token, user, null);
  }

  /** Media of the current site may come from `origin` too (media-hosts.ts): every transport asks at each download. */
  allowMediaOrigin(origin: string): void {
    if (!this.#site) throw new AppFailure('unauthorized', 'Connect to a site first.');
    this.deps.settings.set('site', (this.#site = withMediaOrigin(this.#site, origin)));
    this.#changed();
  }

  /** Stops the sign-in waiting for an answer (a site that hangs): it fails with `cancelled`, nothing changes. */
  cancelConnect(): void {
    this.#attempts.cancel();
  }

  /**
   * Forgets the current technician's token here; tells the site when it can be reached (best effort). Their work stays.
   */
  async signOut(): Promise<void> {
    const id = this.technicianId;
    if (id === null) return;
    const token = this.deps.technicians.signOut(id);
    this.#changed();
    if (token) await this.#revoke(token);
  }

  /** Asks the site who the current technician is: refreshes them and the network state; a 401 forgets their token. */
  async refresh(): Promise<void> {
    const id = this.technicianId;
    const transport = id === null ? this.#publicTransport() : this.deps.technicians.transportFor(id);
    if (!transport) return;
    try {
      if (id === null) await checkPublicSite(transport);
      else if (!this.deps.technicians.refreshed(id, await fetchCurrentUser(transport))) {
        this.setNetwork('online');
        this.refused(id);
        return;
      }
      this.setNetwork('online');
      this.#changed();
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'local') throw error;
      if (noAnswer(failure)) this.setNetwork('offline');
      else if (failure.kind === 'signed-out' && id !== null) this.refused(id);
      else this.setNetwork('online');
    }
  }

  /** The site refused a technician's token: it is forgotten, their work waits until they sign in again. */
  refused(technician: number): void {
    this.deps.technicians.refused(technician);
    this.#changed();
  }

  /** Said by a connect call or the shell: the watch takes it as an answer, or as the site gone. */
  setNetwork(state: NetworkState): void {
    if (state === 'online') this.#reach.heard();
    else if (state === 'offline') this.#reach.lose();
    this.#say(state);
  }

  /**
   * A feature's request got no answer: the site is asked at once (the request itself already told the
   * watch; if others were answered meanwhile, one slow request does not make the site "offline").
   */
  noAnswer(): void {
    if (this.#reach.reachable) void this.#reach.check();
  }

  /** "Send now": while the site is thought away, it is asked again by a check that leaves now. */
  async askAfresh(): Promise<void> {
    await this.#reach.checkAfresh();
  }

  #say(state: NetworkState): void {
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

  /**
   * At start-up: the demo workshop gets its new address, then the
   * site is asked who we are. Answers whether it can be reached.
   */
  async reconnect(demo: DemoLauncher): Promise<boolean> {
    if (this.#site?.demo) this.relocate((await demo.site()).url);
    await this.refresh();
    return this.#network === 'online';
  }

  /**
   * Fieldguide closes: the watch stops, and every request out ends at once (an outbox's change left for a
   * site that hangs is then found out at the next start, as after any lost answer), so the close waits for
   * no site and the data folder closes behind it.
   */
  close(): void {
    clearInterval(this.#heartbeat);
    this.#reach.close();
    this.#closing.abort(new DOMException('Fieldguide is closing.', 'AbortError'));
  }

  /**
   * Whether the watch asks the site in the background: for the current technician or a public site, and
   * while anyone's sign-in is kept here, whose work may wait (a shared laptop with nobody signed in sends
   * it when the site answers again).
   */
  #watched(): boolean {
    return this.canSync || this.deps.technicians.sendable(this.#site).length > 0;
  }

  #changed(): void {
    this.#reach.enable(this.#watched());
    this.deps.events.emit('status', this.status());
  }

  /** A small question to the current site, with no token: any answer (a 401 too) says it is there. */
  async #probe(signal: AbortSignal): Promise<boolean> {
    const site = this.#site;
    if (!site) return false;
    if (this.#prober?.siteUrl !== site.url)
      this.#prober = this.#makeTransport(site.url, null, false, undefined, this.deps.probeHttp);
    try {
      await this.#prober.request('GET', '/user', { signal });
      return true;
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'local' || noAnswer(failure)) return false;
      // A busy site's answer is an answer; the next quiet-site check waits as it asked.
      const retryAfter = failure.kind === 'busy' || failure.kind === 'site-error' ? failure.retryAfter : undefined;
      if (retryAfter !== undefined) this.#reach.heard(retryAfter * 1000);
      return true;
    }
  }

  async #adopt(
    site: SiteInfo,
    token: string,
    user: UserSummary,
    password: { email: string; password: string } | null,
  ): Promise<void> {
    this.deps.settings.set('site', site);
    this.#site = site;
    this.deps.technicians.resetTransports();
    const { replaced } = await this.deps.technicians.signedIn(site, user, token, password);
    this.setNetwork('online');
    this.#changed();
    // Signed in anew while an earlier sign-in of theirs was kept: the earlier token is of no more use.
    if (replaced) void this.#revoke(replaced);
  }

  async #revoke(token: string): Promise<void> {
    try {
      await revokeToken(this.transportWith(token));
      this.setNetwork('online');
    } catch (error) {
      if (noAnswer(classify(error))) this.setNetwork('offline');
    }
  }

  /** Tells the renderer who works now (after a switch made by technician-methods.ts), or what the site offers. */
  changed = (): void => this.#changed();

  /**
   * A transport to `siteUrl`. One in use tells the reachability watch what happens to its requests (any
   * answer: reachable again, the outbox and a sync wake), and while the site is known not to answer its
   * requests wait for a check, never for their own time limit (reachability-http.ts); `via` is how the
   * checks' own goes out. It sends the site's application id: the one given, else the current site's own.
   */
  #makeTransport(
    siteUrl: string,
    token: string | null,
    inUse = false,
    appId?: string | null,
    via?: Http,
  ): ApiTransport {
    const { timeoutMs, onServerTime } = this.deps;
    const base = via ?? this.deps.http ?? siteHttp;
    const http = inUse ? reachabilityHttp(base, siteUrl, this.#reach) : base;
    const id = appId !== undefined ? appId : this.#site?.url === siteUrl ? (this.#site.appId ?? null) : null;
    return new ApiTransport({
      siteUrl,
      token,
      appId: id,
      http,
      ...(timeoutMs ? { timeoutMs } : {}),
      mediaOrigins: () => (this.#site?.url === siteUrl ? (this.#site.mediaOrigins ?? []) : []),
      ...(onServerTime ? { onServerTime } : {}),
      closing: this.#closing.signal,
    });
  }

  /**
   * Runs a connect call (Cancel stops it). Only the site already in use says anything
   * about the network: a mistyped new address is a wrong address, not "offline".
   */
  #call<T>(
    run: (signal: AbortSignal) => Promise<T>,
    siteUrl: string,
    how: 'sign-in' | 'token',
    appId: string | null,
  ): Promise<T> {
    const failed = (failure: AppFailure): void => {
      if (this.#site?.url !== siteUrl || failure.code === 'cancelled') return;
      this.setNetwork(failure.code === 'offline' ? 'offline' : 'online');
    };
    return this.#attempts.run(run, siteUrl, how, failed, appId);
  }
}
