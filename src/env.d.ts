/// <reference types="vite/client" />
import type { BRIDGE_GLOBAL, BridgeApi } from '../electron/contract.ts';

declare global {
  interface Window {
    /** Present in the desktop app: the preload's bridge. Absent in a browser (the web shell). */
    [BRIDGE_GLOBAL]?: BridgeApi;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
