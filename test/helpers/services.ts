import type { AppEvent } from '../../electron/contract.ts';
import { createServices, type Services, type ServicesDeps } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/session/secret-store.ts';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { makeTempDir } from './tmp.ts';

/** Real core services over a temp data folder, with the real demo workshop behind connectDemo. */
export function makeServices(dataDir?: string, overrides: Partial<ServicesDeps> = {}): {
  services: Services;
  dataDir: string;
  events: AppEvent[];
  logs: string[];
  dispose: () => Promise<void>;
} {
  const tmp = dataDir ? null : makeTempDir('services');
  const dir = dataDir ?? tmp!.dir;
  const logs: string[] = [];
  const services = createServices({
    dataDir: dir,
    version: '0.0.0-test',
    secretCodec: plainCodec,
    startDemoWorkshop,
    log: (message) => logs.push(message),
    autoSync: false,
    ...overrides,
  });
  const events: AppEvent[] = [];
  services.events.subscribe((event) => events.push(event));
  return {
    services,
    dataDir: dir,
    events,
    logs,
    dispose: async () => {
      await services.close();
      tmp?.remove();
    },
  };
}
