import { createServices, type Services, type ServicesDeps } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';

/** The core's services as a bench's client runs them: its own data folder, no demo workshop, no timed sync. */
export function benchServices(dataDir: string, overrides: Partial<ServicesDeps> = {}): Services {
  return createServices({
    dataDir,
    version: 'bench',
    secretCodec: plainCodec,
    startDemoWorkshop: () => Promise.reject(new Error('no demo')),
    autoSync: false,
    ...overrides,
  });
}
