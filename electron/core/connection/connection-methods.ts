import { z } from 'zod';
import type { AppStatus, ConnectionApi, SiteInfo } from '../../contract.ts';
import { required } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import { AppFailure } from '../result.ts';
import { plural } from '../../shared/words.ts';
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

export interface ConnectionMethodDeps {
  connection: Connection;
  demo: DemoLauncher;
  hooks: SiteHooks;
}

/** An application id as a site issues it: printable, no spaces inside, sent in a header. */
const appId = z
  .string()
  .trim()
  .max(200, 'The application id is at most 200 characters')
  .regex(/^[\x21-\x7e]*$/, 'The application id is letters, digits and signs, without spaces')
  .optional();
const siteUrl = required('Site address');
const allowInsecure = z.boolean().optional();

/** The App API of the connection: status, connecting (demo, token, password), signing out, media origins. */
export const connectionMethods = defineMethods<keyof ConnectionApi, ConnectionMethodDeps>({
  getStatus: { input: z.tuple([]), run: ({ connection }) => connection.status() },
  connectDemo: {
    input: z.tuple([]),
    run: (deps) =>
      connectTo(deps, { url: '', demo: true }, async () => {
        const site = await deps.demo.site();
        await deps.connection.signIn(site.url, site.account.email, site.account.password, true);
      }),
  },
  connectWithToken: {
    input: z.tuple([z.object({ siteUrl, token: required('API token').max(4096), allowInsecure, appId })]),
    run: (deps, { siteUrl, token, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo(deps, { url, demo: false }, () => deps.connection.connectWithToken(url, token.trim(), false, appId)),
      ),
  },
  connectPublic: {
    input: z.tuple([z.object({ siteUrl, allowInsecure, appId })]),
    run: (deps, { siteUrl, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo(deps, { url, demo: false }, () => deps.connection.connectPublic(url, appId)),
      ),
  },
  signIn: {
    input: z.tuple([
      z.object({
        siteUrl,
        email: required('E-mail').max(320),
        password: z.string().min(1, 'Password is required').max(4096),
        allowInsecure,
        appId,
      }),
    ]),
    run: (deps, { siteUrl, email, password, allowInsecure, appId }) =>
      firstAnswering(siteUrl, allowInsecure, (url) =>
        connectTo(deps, { url, demo: false }, () => deps.connection.signIn(url, email.trim(), password, false, appId)),
      ),
  },
  cancelConnect: {
    input: z.tuple([]),
    run: ({ connection }) => {
      connection.cancelConnect();
      return null;
    },
  },
  signOut: {
    input: z.tuple([]),
    run: async ({ connection, hooks }) => {
      hooks.signingOut();
      await connection.signOut();
      return connection.status();
    },
  },
  allowMediaOrigin: {
    input: z.tuple([required('Address').max(2048)]),
    run: ({ connection }, address) => {
      connection.allowMediaOrigin(webOrigin(address));
      return connection.status();
    },
  },
});

/** Switching sites waits until everything is sent and every conflict settled. */
function guardSiteSwitch({ connection, hooks }: ConnectionMethodDeps, target: SiteInfo): void {
  const current = connection.site;
  if (!current || sameSite(current, target)) return;
  const { unsent, conflicts } = hooks.unsettled();
  if (unsent > 0 || conflicts > 0) {
    // Only what there is: it said "1 action(s) and 0 conflict(s) … are not settled yet".
    const waiting = [
      unsent > 0 ? `${plural(unsent, 'action')} not sent yet` : null,
      conflicts > 0 ? `${plural(conflicts, 'conflict')} to settle` : null,
    ].filter((part) => part !== null);
    const them = unsent + conflicts === 1 ? 'it' : 'them';
    const todo =
      unsent > 0 && conflicts > 0
        ? 'Let them be sent and settle the conflicts'
        : unsent > 0
          ? `Let ${them} be sent`
          : `Settle ${them}`;
    throw new AppFailure(
      'conflict',
      `${current.demo ? 'The demo workshop' : current.url} still has ${waiting.join(' and ')}. ` +
        `${todo} before connecting to another site.`,
      { unsent, conflicts },
    );
  }
}

/** Connects to `target` by `connect`: a new site starts a new library, the outbox goes on. */
async function connectTo(
  deps: ConnectionMethodDeps,
  target: SiteInfo,
  connect: () => Promise<void>,
): Promise<AppStatus> {
  const { connection, hooks } = deps;
  guardSiteSwitch(deps, target);
  const previous = connection.site;
  await connect();
  if (previous && connection.site && !sameSite(previous, connection.site)) hooks.siteChanged();
  hooks.siteConnected();
  hooks.connected();
  return connection.status();
}

/**
 * An address typed without a scheme is tried as https, then (on this machine or the workshop's own
 * network only) as plain http when https is not there; the status says which one worked.
 */
async function firstAnswering(
  typed: string,
  allowInsecure: boolean | undefined,
  connect: (url: string) => Promise<AppStatus>,
): Promise<AppStatus> {
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
