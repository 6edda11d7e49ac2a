import type { AppEvent, AppMethod, BridgeApi, Result } from '../../electron/contract.ts';

/**
 * The App API over the web shell: `POST /rpc/<method>` and the `/events` stream. The same shape as the
 * preload's bridge, so nothing above this file knows which shell it runs in.
 */
export function createWebBridge(base = ''): BridgeApi {
  const call = async (method: AppMethod, args: unknown[]): Promise<Result<unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${base}/rpc/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ args }),
      });
    } catch {
      return { ok: false, error: { code: 'internal', message: "Fieldguide's background service is not answering." } };
    }
    if (!response.ok) {
      return { ok: false, error: { code: 'internal', message: `Fieldguide's background service answered ${response.status}.` } };
    }
    return (await response.json()) as Result<unknown>;
  };

  const listeners = new Set<(event: AppEvent) => void>();
  let source: EventSource | null = null;
  const onEvent = (listener: (event: AppEvent) => void): (() => void) => {
    listeners.add(listener);
    if (!source) {
      source = new EventSource(`${base}/events`);
      source.addEventListener('app', (message) => {
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

  // The renderer imports only types from the contract, so methods are made on first use: any name
  // becomes `POST /rpc/<name>`, and the web shell answers 404 for a name the contract does not have.
  const methods = new Map<string, (...args: unknown[]) => Promise<Result<unknown>>>();
  return new Proxy({} as BridgeApi, {
    get(_target, name) {
      if (name === 'onEvent') return onEvent;
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (!method) {
        method = (...args: unknown[]) => call(name as AppMethod, args);
        methods.set(name, method);
      }
      return method;
    },
  });
}
