import { APP_METHODS, methodChannel, type AppEvent, type BridgeApi } from '../contract.ts';

export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: AppEvent) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: AppEvent) => void): void;
}

/**
 * The object exposed on `window[BRIDGE_GLOBAL]`: one function per method of the contract, and `onEvent`.
 * It never hands out `ipcRenderer` or the IPC event (which carries `sender`).
 */
export function buildBridge(ipc: PreloadIpc, eventChannel: string): BridgeApi {
  const methods = Object.fromEntries(
    APP_METHODS.map((method) => [method, (...args: unknown[]) => ipc.invoke(methodChannel(method), ...args)]),
  );
  const onEvent = (listener: (event: AppEvent) => void): (() => void) => {
    const relay = (_event: unknown, payload: AppEvent): void => listener(payload);
    ipc.on(eventChannel, relay);
    return () => ipc.removeListener(eventChannel, relay);
  };
  return { ...methods, onEvent } as BridgeApi;
}
