import { methodChannel, type AppEvent, type AppMethod, type BridgeApi } from '../contract.ts';

export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: AppEvent) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: AppEvent) => void): void;
}

/**
 * The object exposed on `window[BRIDGE_GLOBAL]`: one function per method the core declares, and `onEvent`.
 * A plain object, not a Proxy: the contextBridge copies an object's own functions into the page and nothing
 * of a Proxy's traps, so the names are given (index.ts has them from the build). It never hands out
 * `ipcRenderer` or the IPC event (which carries `sender`).
 */
export function buildBridge(ipc: PreloadIpc, eventChannel: string, methods: readonly AppMethod[]): BridgeApi {
  const calls = Object.fromEntries(
    methods.map((method) => [method, (...args: unknown[]) => ipc.invoke(methodChannel(method), ...args)]),
  );
  const onEvent = (listener: (event: AppEvent) => void): (() => void) => {
    const relay = (_event: unknown, payload: AppEvent): void => listener(payload);
    ipc.on(eventChannel, relay);
    return () => ipc.removeListener(eventChannel, relay);
  };
  return { ...calls, onEvent } as BridgeApi;
}
