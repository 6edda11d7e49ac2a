import { BRIDGE_GLOBAL, type BridgeApi } from '../../electron/contract.ts';
import { createWebBridge } from './web.ts';

let bridge: BridgeApi | null = null;

/** The App API: the preload's bridge in the desktop app, the web shell otherwise. */
export function useBridge(): BridgeApi {
  bridge ??= window[BRIDGE_GLOBAL] ?? createWebBridge();
  return bridge;
}
