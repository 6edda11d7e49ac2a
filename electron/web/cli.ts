// services.ts first: it sizes libuv's thread pool before anything uses it (core/threadpool.ts).
import { createServices, defaultKeyFile, keyFileCodec, StartupError, type Services } from '../core/services.ts';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { PortUnavailableError } from '../../server/listen.ts';
import { appVersion, rendererDir } from './paths.ts';
import { startWebShell, type RunningWebShell } from './server.ts';

// `npm run start:web`: Fieldguide in a browser, for machines without a display for Electron and for the
// end-to-end tests. The demo workshop starts in-process when the technician picks it, or at once with
// --demo (what `npm run start:web` passes).

/** How many ports after a taken --port are tried. */
const NEXT_FREE_PORTS = 20;

const USAGE = `Usage: npm run start:web   (runs: tsx electron/web/cli.ts --demo)
       tsx electron/web/cli.ts [--demo] [--port P [--strict-port]] [--data-dir DIR]
  --demo          open straight into the demo workshop, signed in as its technician (tech1@demo.test),
                  unless a technician is already signed in to a site
  --port P        listen on 127.0.0.1:P (default 5174); when P is taken, the next free port up to
                  P+${NEXT_FREE_PORTS} is used and said
  --strict-port   a taken port is an error instead
  --data-dir DIR  the app's data folder (default ~/.fieldguide-web)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      demo: { type: 'boolean', default: false },
      port: { type: 'string', default: '5174' },
      'strict-port': { type: 'boolean', default: false },
      'data-dir': { type: 'string', default: path.join(os.homedir(), '.fieldguide-web') },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be a port number (0 to 65535), got ${values.port}`);
  const dataDir = path.resolve(values['data-dir']);

  const services = createServices({
    dataDir,
    version: appVersion(),
    secretCodec: keyFileCodec(defaultKeyFile(os.homedir())),
    startDemoWorkshop,
    log: (message) => console.error(`[fieldguide] ${message}`),
  });
  let shell: RunningWebShell;
  try {
    shell = await startWebShell({
      services,
      staticDir: rendererDir(),
      port,
      nextFreePort: values['strict-port'] ? 0 : NEXT_FREE_PORTS,
    });
    // Signed in before the address is printed: the page opened from it is the demo workshop's library.
    if (values.demo) await openDemo(services);
  } catch (error) {
    await services.close();
    throw error;
  }
  void services.start();
  if (port !== 0 && shell.port !== port) {
    console.log(`Port ${port} is in use by another program, so Fieldguide took the next free port, ${shell.port}.`);
  }
  // The address carries the launch secret: only a page opened from it (or a tool given it) may use the app.
  console.log(`Fieldguide (web shell) at ${shell.launchUrl}  (data: ${dataDir})`);

  const stop = async (): Promise<void> => {
    await shell.close();
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/**
 * --demo: sign in to the demo workshop as its technician, as the Connect screen's demo button does. A
 * technician already signed in (to the demo or to a real site) stays signed in: --demo never drops a
 * site the technician chose, nor its unsent work.
 */
async function openDemo(services: Services): Promise<void> {
  const status = await services.api.getStatus();
  const current = status.ok ? status.value : null;
  if (current?.user) {
    if (!current.site?.demo) {
      console.log(
        `--demo: ${current.user.username} is signed in to ${current.site?.url ?? 'a site'}; ` +
          `that site is kept (sign out in the app to open the demo workshop).`,
      );
    }
    return;
  }
  const result = await services.api.connectDemo();
  if (!result.ok)
    console.error(
      `The demo workshop could not be opened (${result.error.message}); the page offers the Connect screen instead.`,
    );
}

class UsageError extends Error {}

main().catch((error: unknown) => {
  if (error instanceof StartupError || (error as Error).name === 'DatabaseTooNewError') {
    // The data folder cannot be used (another copy holds it,
    // read-only, damaged beyond repair): said, not a stack trace.
    console.error(`Fieldguide cannot start: ${(error as Error).message}`);
  } else if (error instanceof PortUnavailableError) {
    console.error(
      `${error.message} Stop that program, choose another port with --port, or use --port 0 for any free port.`,
    );
  } else if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error((error as Error).message);
    console.error(USAGE);
  } else {
    console.error(error);
  }
  process.exit(1);
});
