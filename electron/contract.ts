/**
 * The App API: everything the renderer may ask of the main process, and every event it may hear.
 *
 * Both shells (Electron IPC, the web shell's HTTP routes) and the preload derive their channel names and
 * method lists from `APP_METHODS` and `APP_EVENTS` below; nothing else spells a channel. The renderer
 * imports only types from here (plus these two lists, which carry no behaviour).
 */

export type ErrorCode =
  | 'offline'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_input'
  | 'invalid_transition'
  | 'server_error'
  | 'storage_full'
  | 'internal';

export interface AppError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Every method answers with a Result; thrown errors never cross the process boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

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
}

export type NetworkState = 'online' | 'offline' | 'unknown';

export interface AppStatus {
  version: string;
  site: SiteInfo | null;
  user: UserSummary | null;
  network: NetworkState;
}

export interface ConnectWithTokenInput {
  siteUrl: string;
  token: string;
}

export interface SignInInput {
  siteUrl: string;
  email: string;
  password: string;
}

export interface AppApi {
  getStatus(): Promise<Result<AppStatus>>;
  /** Starts the built-in demo workshop (the reference server on a loopback port) and signs in to it. */
  connectDemo(): Promise<Result<AppStatus>>;
  connectWithToken(input: ConnectWithTokenInput): Promise<Result<AppStatus>>;
  signIn(input: SignInInput): Promise<Result<AppStatus>>;
  signOut(): Promise<Result<AppStatus>>;
}

export type AppMethod = keyof AppApi;

/** Events pushed from the main process, by name. */
export interface AppEvents {
  status: AppStatus;
  network: NetworkState;
}

export type AppEventName = keyof AppEvents;
export type AppEvent = { [K in AppEventName]: { name: K; payload: AppEvents[K] } }[AppEventName];

/**
 * The single runtime list of methods. `satisfies Record<AppMethod, true>` makes a method missing here,
 * or listed here but absent from AppApi, a type error.
 */
const methodSet = {
  getStatus: true,
  connectDemo: true,
  connectWithToken: true,
  signIn: true,
  signOut: true,
} as const satisfies Record<AppMethod, true>;

const eventSet = {
  status: true,
  network: true,
} as const satisfies Record<AppEventName, true>;

export const APP_METHODS = Object.freeze(Object.keys(methodSet)) as readonly AppMethod[];
export const APP_EVENTS = Object.freeze(Object.keys(eventSet)) as readonly AppEventName[];

export function isAppMethod(name: string): name is AppMethod {
  return Object.prototype.hasOwnProperty.call(methodSet, name);
}

/** IPC channel of a method (Electron); the web shell serves the same method at `/rpc/<method>`. */
export const methodChannel = (method: AppMethod): string => `fieldguide:call:${method}`;
/** The one IPC channel events travel on. */
export const EVENT_CHANNEL = 'fieldguide:event';
/** Name of the object the preload exposes on `window`. */
export const BRIDGE_GLOBAL = 'fieldguide';

/** What the preload exposes: the App API plus a subscription to events. */
export type BridgeApi = AppApi & {
  onEvent(listener: (event: AppEvent) => void): () => void;
};
