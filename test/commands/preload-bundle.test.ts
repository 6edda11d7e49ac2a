import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL, methodChannel } from '../../electron/contract.ts';
import { APP_METHODS } from '../../electron/core/services.ts';

// The built preload (npm run build) carries the methods the core declares, written in by the build
// (electron.vite.config.ts): a sandboxed preload loads nothing of the core. Electron cannot run here, so
// the bundle runs in a VM context whose `require('electron')` records what it exposes.
const bundle = path.resolve(import.meta.dirname, '../../out/preload/index.cjs');

describe('the built preload', () => {
  it('exposes exactly the declared methods and onEvent, each calling its own channel', async () => {
    if (!fs.existsSync(bundle)) throw new Error('The app is not built (out/preload): run npm run build first');
    const exposed: Record<string, Record<string, unknown>> = {};
    const invoked: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: Record<string, unknown>) => (exposed[name] = api) },
      ipcRenderer: { invoke: async (...args: unknown[]) => invoked.push(args), on: () => {}, removeListener: () => {} },
    };
    const require = (name: string) => {
      if (name !== 'electron') throw new Error(`A sandboxed preload can only require electron, not ${name}`);
      return electron;
    };
    vm.runInNewContext(fs.readFileSync(bundle, 'utf8'), { require, module: {}, exports: {} }, { filename: bundle });

    const api = exposed[BRIDGE_GLOBAL]!;
    expect(Object.keys(exposed)).toEqual([BRIDGE_GLOBAL]);
    expect(Object.keys(api).sort()).toEqual([...APP_METHODS, 'onEvent'].sort());
    await (api.getGuide as (...args: unknown[]) => Promise<unknown>)(3, 7);
    expect(invoked).toEqual([[methodChannel('getGuide'), 3, 7]]);
  });
});
