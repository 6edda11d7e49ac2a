import type { AppStatus } from './connection.ts';
import type { Result } from './result.ts';

/** The App API of a shared laptop: who used it, and switching to another technician of the same site. */

/**
 * How a technician's sign-in stands on this laptop. `kept`: their token is kept (sealed), so their work is
 * sent in the background under their name even while someone else works; `signed_out`: they signed out,
 * their work waits until they sign in again; `refused`: the site refused their token, likewise.
 */
export type TechnicianSignIn = 'kept' | 'signed_out' | 'refused';

/** Someone who used this laptop for the current site, as the switch screen lists them. */
export interface TechnicianEntry {
  /** `site|userid`. */
  key: string;
  userid: number;
  username: string;
  /** Known when they signed in with e-mail and password: they sign in again with their password. */
  email: string | null;
  current: boolean;
  signIn: TechnicianSignIn;
  /** Their actions not on the site yet (waiting, being sent or refused), and their open conflicts. */
  unsent: number;
  failed: number;
  conflicts: number;
}

/** Another technician's work waiting on this laptop: counts only, never the work itself. */
export interface OthersWork {
  key: string;
  username: string;
  unsent: number;
  conflicts: number;
  signIn: TechnicianSignIn;
}

/**
 * Signs a technician in on the current site: e-mail and password
 * (checked here offline while their sign-in is kept), or an API token.
 */
export type SwitchTechnicianInput = { email: string; password: string } | { token: string };

export interface TechniciansApi {
  /** Everyone who used this laptop for the current site: name, how their sign-in stands, their unsent work. */
  listTechnicians(): Promise<Result<TechnicianEntry[]>>;
  /**
   * Another technician (or the same again) starts working here; the
   * one before stays signed in. Never re-downloads the library.
   */
  switchTechnician(input: SwitchTechnicianInput): Promise<Result<AppStatus>>;
}
