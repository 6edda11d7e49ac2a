import type { AppApi, AppStatus, Result, SiteInfo } from '../../contract.ts';
import { AppFailure, ok } from '../result.ts';
import type { Connection } from './connection.ts';
import type { DemoLauncher } from './demo-launcher.ts';
import { checkEncryption, siteUrlCandidates, webOrigin } from './site-url.ts';

/** What connecting means to the rest of the app. */
export interface SiteHooks {
  /** Actions not yet sent and conflicts not yet settled: work for one site is never replayed to another. */
  unsettled(): { unsent: number; conflicts: number };
  /** Connected to another site: the previous site's library and work are forgotten. */
  siteChanged(): void;
  /** After any sign-in: the outbox goes on, a sync starts. */
  connected(): void;
  /** Connected to a site (not a switch of technician): what it offers is asked again. */
  siteConnected(): void;
  /** Before signing out: the sync stops. */
  signingOut(): void;
}

/** The demo workshop is one site whatever port it runs on; other sites are their address. */
const sameSite = (a: SiteInfo, b: SiteInfo): boolean => (a.demo || b.demo ? a.demo === b.demo : a.url === b.url);

type ConnectionMethod =
  | 'getStatus'
  | 'connectDemo'
  | 'connectWithToken'
  | 'connectPublic'
  | 'signIn'
  | 'cancelConnect'
  | 'signOut'
  | 'allowMediaOrigin';

/** The App API of the connection: status, connecting (demo, token, password), signing out, media origins. */
export function connectionMethods(
  connection: Connection,
  demo: DemoLauncher,
  hooks: SiteHooks,
): Pick<AppApi, ConnectionMethod> {
  /** Switching sites waits until everything is sent and every conflict settled. */
  function guardSiteSwitch(target: SiteInfo): void {
    const current = connection.site;
    if (!current || sameSite(current, target)) return;
    const { unsent, conflicts } = hooks.unsettled();
    if (unsent > 0 || conflicts > 0) {
      throw new AppFailure(
        'conflict',
        `${unsent} action(s) and ${conflicts} conflict(s) ` +
          `of ${current.demo ? 'the demo workshop' : current.url} are not settled yet. ` +
          'Send them (or settle them) before connecting to another site.',
        { unsent, conflicts },
      );
    }
  }

  /** Connects to `target` by `connect`: a new site starts a new library, the outbox goes on. */
  async function connectTo(target: SiteInfo, connect: () => Promise<void>): Promise<Result<AppStatus>> {
    guardSiteSwitch(target);
    const previous = connection.site;
    await connect();
    if (previous && connection.site && !sameSite(previous, connection.site)) hooks.siteChanged();
    hooks.siteConnected();
    hooks.connected();
    return ok(connection.status());
  }

  /**
   * An address typed without a scheme is tried as https, then (on this machine or the workshop's own
   * network only) as plain http when https is not there; the status says which one worked.
   */
  async function firstAnswering(
    typed: string,
    allowInsecure: boolean | undefined,
    connect: (url: string) => Promise<Result<AppStatus>>,
  ): Promise<Result<AppStatus>> {
    const candidates = siteUrlCandidates(typed);
    for (const [index, url] of candidates.entries()) {
      try {
        checkEncryption(url, allowInsecure);
        return await connect(url);
      } catch (error) {
        const noHttpsThere =
          error instanceof AppFailure &&
          error.code === 'offline' &&
          ['tls', 'refused', 'other'].includes(String(error.details?.reason));
        if (!noHttpsThere || index === candidates.length - 1) throw error;
      }
    }
    throw new AppFailure('internal', 'No address to try.');
  }

  return {
    getStatus: async () => ok(connection.status()),
    connectDemo: async () =>
      connectTo({ url: '', demo: true }, async () => {
        const site = await demo.site();
        await connection.signIn(site.url, site.account.email, site.account.password, true);
      }),
    connectWithToken: async ({ siteUrl, token, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo({ url, demo: false }, () => connection.connectWithToken(url, token.trim(), false, appId)),
      ),
    connectPublic: async ({ siteUrl, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo({ url, demo: false }, () => connection.connectPublic(url, appId)),
      ),
    signIn: async ({ siteUrl, email, password, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo({ url, demo: false }, () => connection.signIn(url, email.trim(), password, false, appId)),
      ),
    cancelConnect: async () => {
      connection.cancelConnect();
      return ok(null);
    },
    signOut: async () => {
      hooks.signingOut();
      await connection.signOut();
      return ok(connection.status());
    },
    allowMediaOrigin: async (address) => {
      connection.allowMediaOrigin(webOrigin(address));
      return ok(connection.status());
    },
  };
}
