import { EVENTS_PATH, LAUNCH_HEADER, READ_KEY_PARAM, rpcPath, SSE_EVENT } from '../../electron/contract.ts';
import type { AppEvent, AppMethod, BridgeApi, Result } from '../../electron/contract.ts';
import { launch } from './launch.ts';

/**
 * The App API over the web shell: `POST rpcPath(method)` with the launch secret as a header, and the event
 * stream with the read key in its address (launch.ts). The same shape as the preload's bridge, so nothing
 * above this file knows which shell it runs in. Derived from the contract's type alone, as VS Code's
 * `ProxyChannel.toService`: any method name read from it is a call of that method, so no list of names
 * lives in the renderer (the web shell answers a name the core does not declare with a 404).
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
      // Said where the press was (a step's Next, say), and it stays until the next press: so it says what became of
      // the press (a walk's Next had saved nothing, the words still there once the service was back).
      const message = "Fieldguide's background service is not answering, so this was not done: try again in a moment.";
      return { ok: false, error: { code: 'internal', message } };
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

  return new Proxy({ onEvent } as BridgeApi, {
    get(target, name, receiver) {
      if (Object.hasOwn(target, name) || !isMethodName(name)) return Reflect.get(target, name, receiver);
      return (...args: unknown[]) => call(name as AppMethod, args);
    },
  });
}

/**
 * A name a method of the App API could have (`listGuides`). Not `then`: a bridge returned from an async
 * function or awaited must not look like a promise; nor a symbol or `__v_skip` a library probes it with.
 */
const isMethodName = (name: string | symbol): name is string =>
  typeof name === 'string' && name !== 'then' && /^[a-z][A-Za-z]*$/.test(name);
