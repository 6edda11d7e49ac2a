import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { BRIDGE_GLOBAL } from '../../electron/contract.ts';

/**
 * A renderer store under test with a stand-in bridge: fresh copies of the store's modules before the file's
 * tests (useBridge() keeps the first bridge it finds, src/bridge/index.ts, and the unit files share a
 * worker's modules, vitest.config.ts), then before each test the bridge on `window`, a new Pinia and
 * `fresh` (the file's own state). Answers the store's module once loaded.
 */
export function withStandInBridge<M>(
  bridge: object,
  load: () => Promise<M>,
  fresh?: () => void,
): { readonly module: M } {
  let module: M | undefined;
  beforeAll(async () => {
    vi.resetModules();
    module = await load();
  });
  beforeEach(() => {
    (globalThis as Record<string, unknown>).window = { [BRIDGE_GLOBAL]: bridge };
    setActivePinia(createPinia());
    fresh?.();
  });
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).window;
  });
  return {
    get module(): M {
      if (!module) throw new Error('The store is loaded before the tests run.');
      return module;
    },
  };
}
