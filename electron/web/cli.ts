// services.ts first: it sizes libuv's thread pool before anything uses it (core/threadpool.ts).
import { createServices, plainCodec } from '../core/services.ts';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { appVersion, rendererDir } from './paths.ts';
import { startWebShell } from './server.ts';

// `npm run start:web`: Fieldguide in a browser, for machines without a display for Electron and for the
// end-to-end tests. The demo workshop starts in-process when the technician picks it.
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5174' },
    'data-dir': { type: 'string', default: path.join(os.homedir(), '.fieldguide-web') },
  },
});

const services = createServices({
  dataDir: path.resolve(values['data-dir']),
  version: appVersion(),
  secretCodec: plainCodec,
  startDemoWorkshop,
  log: (message) => console.error(`[fieldguide] ${message}`),
});
const shell = await startWebShell({ services, staticDir: rendererDir(), port: Number(values.port) });
void services.start();
console.log(`Fieldguide (web shell) at ${shell.url}  (data: ${path.resolve(values['data-dir'])})`);

const stop = async (): Promise<void> => {
  await shell.close();
  await services.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
