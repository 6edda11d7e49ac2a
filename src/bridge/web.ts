import {
  APP_METHODS,
  EVENTS_PATH,
  LAUNCH_HEADER,
  READ_KEY_PARAM,
  rpcPath,
  SSE_EVENT,
} from '../../electron/contract.ts';
import type { AppEvent, AppMethod, BridgeApi, Result } from '../../electron/contract.ts';
import { launch } from './launch.ts';

/**
 * The App API over the web shell: `POST rpcPath(method)` with the launch secret as a header, and the event
 * stream with the read key in its address (launch.ts). The same shape as the preload's bridge, so nothing
 * above this file knows which shell it runs in.
 */
export function createWebBridge(base = ''): BridgeApi {
  const call = async (method: AppMethod, args: unknown[]): Promise<Result<unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${base}${rpcPath(method)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [LAUNCH_HEADER]: launch()?.secret ?? '' },
        body: JSON.stringify({ args }),
      });
    } catch {
      return { ok: false, error: { code: 'internal', message: "Fieldguide's background service is not answering." } };
    }
    if (response.status === 401) {
      return {
        ok: false,
        error: {
          code: 'unauthorized',
          message: 'This page is not connected to Fieldguide: open the address the web shell printed when it started.',
        },
      };
    }
    if (!response.ok) {
      return {
        ok: false,
        error: { code: 'internal', message: `Fieldguide's background service answered ${response.status}.` },
      };
    }
    return (await response.json()) as Result<unknown>;
  };

  const listeners = new Set<(event: AppEvent) => void>();
  let source: EventSource | null = null;
  const onEvent = (listener: (event: AppEvent) => void): (() => void) => {
    listeners.add(listener);
    if (!source) {
      const key = encodeURIComponent(launch()?.readKey ?? '');
      source = new EventSource(`${base}${EVENTS_PATH}?${READ_KEY_PARAM}=${key}`);
      source.addEventListener(SSE_EVENT, (message) => {
        const event = JSON.parse((message as MessageEvent<string>).data) as AppEvent;
        for (const each of listeners) each(event);
      });
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        source?.close();
        source = null;
      }
    };
  };

  // One function per method of the contract, as the preload makes them.
  const methods = Object.fromEntries(APP_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]));
  return { ...methods, onEvent } as BridgeApi;
}
