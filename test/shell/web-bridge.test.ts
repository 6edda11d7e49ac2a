import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAUNCH_STORAGE_KEY } from '../../electron/contract.ts';
import { APP_METHODS } from '../../electron/core/services.ts';
import { readKeyOf, startWebShell, type RunningWebShell } from '../../electron/web/server.ts';
import { createWebBridge } from '../../src/bridge/web.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The renderer's web bridge holds no list of methods: it is a Proxy over one call (as VS Code's
// ProxyChannel.toService), and the web shell routes the methods the core declares. Real services, real HTTP.
let app: ReturnType<typeof makeServices>;
let shell: RunningWebShell;
const staticDir = makeTempDir('web-bridge-static');

beforeAll(async () => {
  app = makeServices();
  fs.writeFileSync(path.join(staticDir.dir, 'index.html'), '<!doctype html><title>app</title>');
  shell = await startWebShell({ services: app.services, staticDir: staticDir.dir });
  const kept = JSON.stringify({ secret: shell.secret, readKey: readKeyOf(shell.secret) });
  vi.stubGlobal('localStorage', { getItem: (key: string) => (key === LAUNCH_STORAGE_KEY ? kept : null) });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await shell?.close();
  await app?.dispose();
  staticDir.remove();
});

describe('the web bridge, derived from the contract', () => {
  it('calls every declared method by its name over the web shell', async () => {
    const bridge = createWebBridge(shell.url);
    expect(await bridge.getStatus()).toMatchObject({ ok: true, value: { version: '0.0.0-test', user: null } });
    expect(await bridge.listSessions({})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    // Each declared method is reached (and none runs): an argument nested too deep is refused by its dispatch.
    let deep: unknown = 'bottom';
    for (let level = 0; level < 40; level++) deep = [deep];
    const call = bridge as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const method of APP_METHODS) {
      expect(await call[method]!(deep)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });

  it('a name the core does not declare reaches no method', async () => {
    const bridge = createWebBridge(shell.url) as unknown as Record<string, () => Promise<unknown>>;
    expect(await bridge.deleteEverything!()).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(await app.services.invoke('deleteEverything', [])).toMatchObject({ error: { code: 'not_found' } });
  });

  it('is no promise: awaiting it or returning it from an async function calls nothing', async () => {
    const bridge = createWebBridge(shell.url);
    expect((bridge as unknown as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(bridge)).toBe(bridge);
    expect(typeof bridge.onEvent).toBe('function');
  });

  it('says a call to a service that does not answer was not done', async () => {
    const gone = await startWebShell({ services: app.services, staticDir: staticDir.dir });
    await gone.close();
    expect(await createWebBridge(gone.url).getStatus()).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message: "Fieldguide's background service is not answering, so this was not done: try again in a moment.",
      },
    });
  });
});
