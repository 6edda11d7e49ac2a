import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_GLOBAL, EVENT_CHANNEL, methodChannel } from '../../electron/contract.ts';
import { registerIpc } from '../../electron/main/ipc.ts';
import { createWebShellApp } from '../../electron/web/server.ts';
import { APP_METHODS, type Services } from '../../electron/core/services.ts';

// Electron cannot be launched on this machine, so the preload runs against a recording stand-in for the
// `electron` module: the point is which names it exposes, not Electron itself.
const exposed = vi.hoisted(() => ({ calls: [] as Array<{ name: string; api: Record<string, unknown> }> }));
const ipcRenderer = vi.hoisted(() => ({
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null })),
  on: vi.fn(),
  removeListener: vi.fn(),
}));
vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (name: string, api: Record<string, unknown>) => exposed.calls.push({ name, api }),
  },
  ipcRenderer,
}));

// The methods the core declares (core/app-methods.ts): the one list every shell takes its own from.
const contractNames = [...APP_METHODS].sort();

describe('every shell exposes exactly the contract', () => {
  afterEach(() => {
    vi.clearAllMocks();
    vi.unstubAllGlobals();
    vi.resetModules();
    exposed.calls.length = 0;
  });

  it('the preload exposes one function per declared method, plus onEvent, and nothing of ipcRenderer', async () => {
    // The build writes the declared names in (electron.vite.config.ts); test/commands/preload-bundle checks it.
    vi.stubGlobal('__APP_METHODS__', APP_METHODS);
    await import('../../electron/preload/index.ts');
    expect(exposed.calls).toHaveLength(1);
    const [{ name, api }] = exposed.calls as [{ name: string; api: Record<string, unknown> }];
    expect(name).toBe(BRIDGE_GLOBAL);
    expect(Object.keys(api).sort()).toEqual([...contractNames, 'onEvent'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.values(api)).not.toContain(ipcRenderer);

    await (api.signIn as (input: unknown) => Promise<unknown>)({ siteUrl: 'x', email: 'y', password: 'z' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(methodChannel('signIn'), {
      siteUrl: 'x',
      email: 'y',
      password: 'z',
    });

    const listener = vi.fn();
    const unsubscribe = (api.onEvent as (l: (e: unknown) => void) => () => void)(listener);
    const relay = ipcRenderer.on.mock.calls[0]?.[1] as (event: unknown, payload: unknown) => void;
    expect(ipcRenderer.on.mock.calls[0]?.[0]).toBe(EVENT_CHANNEL);
    relay({ sender: 'secret' }, { name: 'network', payload: 'offline' });
    expect(listener).toHaveBeenCalledWith({ name: 'network', payload: 'offline' });
    unsubscribe();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith(EVENT_CHANNEL, relay);
  });

  it('a preload built without the declared methods exposes nothing and says why', async () => {
    await expect(import('../../electron/preload/index.ts')).rejects.toThrow(/built without the App API's methods/);
    expect(exposed.calls).toHaveLength(0);
  });

  it('the IPC handlers are exactly one channel per contract method and refuse untrusted frames', async () => {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const ipcMain = {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) => {
        handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    };
    const invoke = vi.fn(async () => ({ ok: true as const, value: 'answered' }));
    const unregister = registerIpc(
      ipcMain as never,
      { invoke },
      (event) => (event as unknown as { trusted: boolean }).trusted,
    );
    expect([...handlers.keys()].sort()).toEqual(APP_METHODS.map(methodChannel).sort());

    const getStatus = handlers.get(methodChannel('getStatus'))!;
    expect(await getStatus({ trusted: true })).toEqual({ ok: true, value: 'answered' });
    expect(invoke).toHaveBeenCalledWith('getStatus', []);
    expect(await getStatus({ trusted: false })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(invoke).toHaveBeenCalledTimes(1);

    unregister();
    expect(handlers.size).toBe(0);
  });

  it('the web shell routes one POST /rpc/<method> per contract method and nothing else', () => {
    const app = createWebShellApp(
      { services: {} as Services, staticDir: import.meta.dirname, secret: 'test-secret' },
      () => new Set(),
    );
    const rpcRoutes = app.routes
      .filter((route) => route.path.startsWith('/rpc/') && route.path !== '/rpc/*')
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    expect(rpcRoutes).toEqual(contractNames.map((method) => `POST /rpc/${method}`).sort());
  });
});
