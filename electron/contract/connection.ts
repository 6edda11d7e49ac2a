import type { Result } from './result.ts';

/** The App API of the connection: which site, who is signed in, whether it answers, and what it offers. */

export interface UserSummary {
  userid: number;
  username: string;
  uniqueUsername: string | null;
  privileges: string[];
  imageUrl: string | null;
}

export interface SiteInfo {
  /** The site's address as the technician typed it (normalised), without `/api/2.0`. */
  url: string;
  /** True for the built-in demo workshop started in-process. */
  demo: boolean;
  /** Connected by its address alone, without an account: its public guides only (`connectPublic`). */
  anonymous?: boolean;
  /**
   * Origins (`http://192.168.1.20:8081`) the technician allowed media from besides the site's own and the
   * web's https hosts: another port of this computer, the local network, plain http (`allowMediaOrigin`).
   */
  mediaOrigins?: string[];
  /**
   * The application id the site gave this app (iFixit and some Dozuki sites want one: `X-App-Id`), sent
   * with every request to the site; absent or null when the site needs none.
   */
  appId?: string | null;
}

export interface ConnectPublicInput {
  siteUrl: string;
  /** The technician confirmed a plain-http address that is not this machine (see SignInInput). */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId). */
  appId?: string;
}

export type NetworkState = 'online' | 'offline' | 'unknown';

/** The modules an API 2.0 site may or may not offer (a Dozuki site without step forms, iFixit without a work log). */
export type SiteModule =
  'step_forms' | 'quizzes' | 'work_log' | 'tags' | 'categories' | 'comments' | 'user_media' | 'search';
export const SITE_MODULES: readonly SiteModule[] = [
  'step_forms',
  'quizzes',
  'work_log',
  'tags',
  'categories',
  'comments',
  'user_media',
  'search',
];

/**
 * What the site answered when asked for a module: `offered`; `missing` (404, 403, 405 or 501: the site has
 * none); `sign_in` (401: for its members only, and nobody is signed in); `unknown` (not asked yet, or no answer).
 */
export type ModuleState = 'offered' | 'missing' | 'sign_in' | 'unknown';

export interface SiteCapabilities {
  modules: Record<SiteModule, ModuleState>;
  /** When the site was last asked (unix seconds), or null. */
  checkedAt: number | null;
  /**
   * The site takes uploads as pictures only (iFixit's media manager, learned where it answered): a step's
   * Video or Document field takes a picture there, and a video or document is refused as it is attached.
   */
  picturesOnly?: boolean;
}

export interface AppStatus {
  version: string;
  site: SiteInfo | null;
  /** The current technician: the one using the app now. */
  user: UserSummary | null;
  /**
   * The current technician as drafts are kept under (`site|userid`), and
   * whether drafts kept before technicians were recorded are theirs.
   */
  technician: { key: string; earlierDrafts: boolean } | null;
  network: NetworkState;
  /**
   * In the demo workshop only: the password its demo accounts share on this computer (made at install,
   * see the README), shown so another demo technician can sign in on the switch screen. Null elsewhere.
   */
  demoPassword: string | null;
  /** What the site offers, as it last answered (null before any site). */
  capabilities: SiteCapabilities | null;
  /**
   * Seconds (with their fraction) to add to this computer's clock to read the site's, learned from the
   * `Date` of its answers (0 before any). Work sessions' times are on the site's clock: a window counts a
   * running one with it.
   */
  siteClockOffset: number;
  /** Its place among the statuses the core has made (shared/told.ts): a later one has a greater number. */
  told: number;
}

export interface ConnectWithTokenInput {
  siteUrl: string;
  token: string;
  /** The technician confirmed a plain-http address that is not this machine (see SignInInput). */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId). */
  appId?: string;
}

export interface SignInInput {
  siteUrl: string;
  email: string;
  password: string;
  /**
   * The technician confirmed sending the sign-in without encryption to a plain-http address that is not
   * this machine. Without it such an address is refused with `invalid_input` and `details.needs: 'insecure'`.
   */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId): iFixit refuses a sign-in without. */
  appId?: string;
}

export interface ConnectionApi {
  getStatus(): Promise<Result<AppStatus>>;
  /** Starts the built-in demo workshop (the reference server on a loopback port) and signs in to it. */
  connectDemo(): Promise<Result<AppStatus>>;
  connectWithToken(input: ConnectWithTokenInput): Promise<Result<AppStatus>>;
  /** Connects to a public site by its address alone: its public guides are read offline, nobody is signed in. */
  connectPublic(input: ConnectPublicInput): Promise<Result<AppStatus>>;
  signIn(input: SignInInput): Promise<Result<AppStatus>>;
  /** Stops a sign-in or token connect that is waiting for the site: it then fails with `cancelled`. */
  cancelConnect(): Promise<Result<null>>;
  /**
   * Signs the current technician out: their token is forgotten;
   * their unsent work stays, waiting for them. Works offline.
   */
  signOut(): Promise<Result<AppStatus>>;
  /**
   * Allows media of the current site from an origin that is not the site's own nor a host of the web over
   * https (another port of this computer, the local network, plain http): the site's own media server.
   */
  allowMediaOrigin(origin: string): Promise<Result<AppStatus>>;
}
