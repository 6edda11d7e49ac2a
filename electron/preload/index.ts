import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL, EVENT_CHANNEL, type AppMethod } from '../contract.ts';
import { buildBridge } from './bridge.ts';

/**
 * The App API's method names, written in by the build from the core's declarations
 * (electron.vite.config.ts): a sandboxed preload can load nothing of the core.
 */
declare const __APP_METHODS__: readonly AppMethod[] | undefined;

if (typeof __APP_METHODS__ === 'undefined' || __APP_METHODS__.length === 0) {
  throw new Error("The preload was built without the App API's methods (electron.vite.config.ts defines them).");
}
contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, buildBridge(ipcRenderer, EVENT_CHANNEL, __APP_METHODS__));
