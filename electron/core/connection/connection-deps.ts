import type { SiteCapabilities } from '../../contract.ts';
import type { Http } from '../api/http.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import type { EventHub } from '../events.ts';
import type { Technicians } from './technicians.ts';

/** What the connection is built with (connection.ts). */
export interface ConnectionDeps {
  settings: SettingsRepo;
  /** Who works here, and each technician's own sign-in. */
  technicians: Technicians;
  /** The app's version, for the status. */
  version: string;
  /** Where `status` and `network` events go. */
  events: EventHub;
  http?: Http;
  /** How the reachability checks go out (reachability.ts): apart from `http`, so a sync's figures leave them out. */
  probeHttp?: Http;
  timeoutMs?: number;
  /** Told the site's clock with each answer (connection/server-clock.ts). */
  onServerTime?: (serverSeconds: number) => void;
  /** Seconds from the local clock to the site's (connection/server-clock.ts), for the status. */
  siteClockOffset?: () => number;
  /** The demo workshop's password, shown in the status while the demo is the site. */
  demoPassword?: () => string | null;
  /** What the current site offers (sync/site-modules.ts), for the status. */
  capabilities?: () => SiteCapabilities | null;
}
