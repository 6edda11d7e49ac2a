import { Client, Dispatcher } from 'undici';

/** Who asks on the front lane: the technician (`asked`), or the lane's own warm question (`warmth`). */
export type FrontAsker = 'asked' | 'warmth';

/** One site's connections of the front lane, each with when it was last given a request. */
interface SiteConnections {
  clients: Client[];
  lastGiven: number[];
}

/**
 * The front lane's connections (http.ts): for each site, `count` connections of its own, each an undici
 * Client (one connection, one request at a time), given out by who asks. A Pool gives a request the
 * first free connection, so the lane's warm questions (sync/front-lane.ts), asked of all its connections
 * at once, held every one of them for a round trip: a guide opened then waited for them, a round trip
 * late (0.39 s to its text instead of 0.19 s at 150 ms/5 Mbit, 2026-12-02). Here a warm question goes on
 * the connection given nothing for the longest, one at a time, and what the technician asks on a free,
 * open connection, the most lately used first: the others are free while one is warmed.
 */
export class FrontConnections {
  readonly #sites = new Map<string, SiteConnections>();
  /** What the technician asks: a free open connection, the most lately used first. */
  readonly asked: Dispatcher;
  /** The lane's warm question: the free connection given nothing for the longest. */
  readonly warmth: Dispatcher;

  constructor(
    readonly count: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.asked = new FrontDispatcher(this, 'asked');
    this.warmth = new FrontDispatcher(this, 'warmth');
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler, asker: FrontAsker): boolean {
    const site = this.#site(String(options.origin));
    const index = asker === 'asked' ? forTechnician(site) : forWarmth(site);
    site.lastGiven[index] = this.now();
    return site.clients[index]!.dispatch(options, handler);
  }

  /**
   * How long the connection a warm question would go on now has been given nothing, in ms; null when
   * none of the site's connections is free (each is busy with a request, and kept open by it).
   */
  idleFor(origin: string): number | null {
    const site = this.#sites.get(origin);
    if (!site) return Number.POSITIVE_INFINITY;
    const free = site.clients.some((client) => client.stats.size === 0);
    return free ? this.now() - site.lastGiven[forWarmth(site)]! : null;
  }

  #site(origin: string): SiteConnections {
    let site = this.#sites.get(origin);
    if (!site) {
      site = {
        clients: Array.from({ length: this.count }, () => new Client(origin)),
        lastGiven: Array.from({ length: this.count }, () => Number.NEGATIVE_INFINITY),
      };
      this.#sites.set(origin, site);
    }
    return site;
  }

  async close(): Promise<void> {
    const clients = [...this.#sites.values()].flatMap((site) => site.clients);
    this.#sites.clear();
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** A free connection already open, the most lately used first; else a free one; else the least busy. */
function forTechnician(site: SiteConnections): number {
  // Free and open beats free and closed (a handshake first), which beats busy (a wait behind its request).
  const rank = (index: number): number => {
    const { size, connected } = site.clients[index]!.stats;
    return size === 0 ? (connected ? 2 : 1) : -size;
  };
  let best = 0;
  for (let index = 1; index < site.clients.length; index++) {
    const [mine, theirs] = [rank(index), rank(best)];
    if (mine > theirs || (mine === theirs && site.lastGiven[index]! > site.lastGiven[best]!)) best = index;
  }
  return best;
}

/** The free connection given nothing for the longest; the least busy when none is free. */
function forWarmth(site: SiteConnections): number {
  let best = 0;
  for (let index = 1; index < site.clients.length; index++) {
    const [mine, theirs] = [site.clients[index]!.stats.size, site.clients[best]!.stats.size];
    if (mine < theirs || (mine === theirs && site.lastGiven[index]! < site.lastGiven[best]!)) best = index;
  }
  return best;
}

/** One asker's view of the front lane, as undici's `request` takes a dispatcher. */
class FrontDispatcher extends Dispatcher {
  constructor(
    private readonly lane: FrontConnections,
    private readonly asker: FrontAsker,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.lane.dispatch(options, handler, this.asker);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closing = this.lane.close();
    if (!callback) return closing;
    void closing.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const callback = typeof first === 'function' ? first : second;
    const closing = this.lane.close();
    if (!callback) return closing;
    void closing.then(callback, callback);
  }
}
