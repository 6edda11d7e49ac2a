/// <reference types="vite/client" />
import type { BridgeApi } from '../electron/contract.ts';

declare global {
  interface Window {
    /** Present in the desktop app: the preload's bridge. Absent in a browser (the web shell). */
    fieldguide?: BridgeApi;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
