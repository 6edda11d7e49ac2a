import fs from 'node:fs';
import path from 'node:path';
import { APP_METHODS, type AppApi, type AppMethod, type AppStatus, type Result } from '../contract.ts';
import { openDatabase, type Db } from './db/open.ts';
import { SettingsRepo } from './db/repos/settings-repo.ts';
import { EventHub } from './events.ts';
import { AppFailure, ok } from './result.ts';
import { Connection } from './session/connection.ts';
import { FileSecretStore, type SecretCodec } from './session/secret-store.ts';
import { normalizeSiteUrl } from './session/site-url.ts';
import { methodInputs } from './method-inputs.ts';

/** A running demo workshop: the reference server on a loopback port, started by the shell. */
export interface DemoSite {
  /** The site's address (no `/api/2.0`). */
  url: string;
  /** The technician account the demo signs in with. */
  account: { email: string; password: string };
  close(): Promise<void>;
}

export interface ServicesDeps {
  /** The app's data folder: database, sealed token, media. */
  dataDir: string;
  version: string;
  /** How the token is sealed at rest (safeStorage in Electron). */
  secretCodec: SecretCodec;
  /** Starts the built-in demo workshop; both shells pass the reference server's `startDemoWorkshop`. */
  startDemoWorkshop: (dataDir: string) => Promise<DemoSite>;
  nativeBinding?: string;
  fetch?: typeof fetch;
  /** Where problems that are not the technician's to act on are reported; never given a token. */
  log?: (message: string) => void;
}

export interface Services {
  /** The App API, every argument validated, every failure a Result. */
  api: AppApi;
  /** The same, by method name: what both shells call with untrusted arguments. */
  invoke(method: string, args: unknown): Promise<Result<unknown>>;
  events: EventHub;
  /** Background work after construction (refreshing the signed-in user); never throws. */
  start(): Promise<void>;
  /** The shell's own network hint (Electron's `online`/`offline`). */
  setNetworkHint(online: boolean): void;
  close(): Promise<void>;
}

export function createServices(deps: ServicesDeps): Services {
  const log = deps.log ?? (() => {});
  fs.mkdirSync(deps.dataDir, { recursive: true });
  const db: Db = openDatabase(path.join(deps.dataDir, 'fieldguide.sqlite'), {
    ...(deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
  });
  const events = new EventHub();
  const settings = new SettingsRepo(db, (key, problem) => log(`Setting "${key}" could not be read (${problem}); using the default.`));
  const secrets = new FileSecretStore(path.join(deps.dataDir, 'token.sealed'), deps.secretCodec);
  let demo: DemoSite | null = null;

  const status = (): AppStatus => ({
    version: deps.version,
    site: connection.site,
    user: connection.user,
    network: connection.network,
  });
  const connection = new Connection({
    settings,
    secrets,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    onChange: () => events.emit('status', status()),
    onNetwork: (state) => {
      events.emit('network', state);
      events.emit('status', status());
    },
  });

  async function ensureDemo(): Promise<DemoSite> {
    demo ??= await deps.startDemoWorkshop(deps.dataDir);
    return demo;
  }

  const impl: AppApi = {
    getStatus: async () => ok(status()),

    connectDemo: async () => {
      const site = await ensureDemo();
      await connection.signIn(site.url, site.account.email, site.account.password, true);
      return ok(status());
    },

    connectWithToken: async ({ siteUrl, token }) => {
      await connection.connectWithToken(normalizeSiteUrl(siteUrl), token.trim());
      return ok(status());
    },

    signIn: async ({ siteUrl, email, password }) => {
      await connection.signIn(normalizeSiteUrl(siteUrl), email.trim(), password);
      return ok(status());
    },

    signOut: async () => {
      await connection.signOut();
      return ok(status());
    },
  };

  async function invoke(method: string, args: unknown): Promise<Result<unknown>> {
    if (!(APP_METHODS as readonly string[]).includes(method)) {
      return { ok: false, error: { code: 'not_found', message: `No App API method "${method}"` } };
    }
    const name = method as AppMethod;
    const parsed = methodInputs[name].safeParse(args ?? []);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid arguments for ${name}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid'}`,
        },
      };
    }
    try {
      const call = impl[name] as (...a: unknown[]) => Promise<Result<unknown>>;
      return await call(...(parsed.data as unknown[]));
    } catch (error) {
      if (error instanceof AppFailure) return { ok: false, error: error.toAppError() };
      log(`${name} failed unexpectedly: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return { ok: false, error: { code: 'internal', message: 'Something went wrong inside Fieldguide; nothing was lost. Try again.' } };
    }
  }

  const api = Object.fromEntries(
    APP_METHODS.map((method) => [method, (...args: unknown[]) => invoke(method, args)]),
  ) as unknown as AppApi;

  return {
    api,
    invoke,
    events,
    async start() {
      try {
        if (connection.site?.demo) {
          const site = await ensureDemo();
          connection.relocate(site.url);
        }
        await connection.refresh();
      } catch (error) {
        log(`Start-up refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    setNetworkHint(online) {
      connection.setNetwork(online ? 'online' : 'offline');
    },
    async close() {
      await demo?.close();
      demo = null;
      db.close();
    },
  };
}
