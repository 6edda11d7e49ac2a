import type { AppApi, AppMethod } from './app-api.ts';
import type { AppEvent } from './events.ts';

// How the shells carry the App API: IPC channels, the web shell's routes and launch secret, the preload's global.

/** IPC channel of a method (Electron); the web shell serves the same method at `rpcPath(method)`. */
export const methodChannel = (method: AppMethod): string => `fieldguide:call:${method}`;
/** The one IPC channel events travel on. */
export const EVENT_CHANNEL = 'fieldguide:event';

/** The web shell's App API: `POST /rpc/<method>`, the arguments as `{args: [...]}`, a Result back. */
export const RPC_PREFIX = '/rpc/';
export const rpcPath = (method: AppMethod): string => `${RPC_PREFIX}${method}`;
/** The web shell's event stream (server-sent events); each App API event is one SSE event of this name. */
export const EVENTS_PATH = '/events';
export const SSE_EVENT = 'app';

/**
 * The web shell's launch secret. It comes once, in the address the shell prints (`?launch=`); the page
 * keeps it in its own origin's storage (`LAUNCH_STORAGE_KEY`), which no other port of this computer can
 * read (a cookie would be sent to every port of 127.0.0.1), and sends it as `LAUNCH_HEADER` with every App
 * API call. `POST LAUNCH_ROUTE` with the header answers `{readKey}`: what the event stream's and media
 * addresses carry (`?key=`), since a browser adds no header to those; it reads, it never calls the App API.
 */
export const LAUNCH_PARAM = 'launch';
export const LAUNCH_HEADER = 'x-fieldguide-launch';
export const LAUNCH_ROUTE = '/launch';
export const LAUNCH_STORAGE_KEY = 'fieldguide.launch';
export const READ_KEY_PARAM = 'key';

/** Name of the object the preload exposes on `window`. */
export const BRIDGE_GLOBAL = 'fieldguide';

/** What the preload exposes: the App API plus a subscription to events. */
export type BridgeApi = AppApi & {
  onEvent(listener: (event: AppEvent) => void): () => void;
};
