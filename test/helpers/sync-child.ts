// A sync in a process of its own, for the kill tests: prints "req <n>" as each request starts, so the
// parent can SIGKILL it at a seeded point, and "done <status>" at the end.
import { createServices } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/session/secret-store.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: sync-child.ts <dataDir>');
let n = 0;
const services = createServices({
  dataDir,
  version: '0.0.0-test',
  secretCodec: plainCodec,
  startDemoWorkshop: () => Promise.reject(new Error('no demo in the kill test')),
  autoSync: false,
  fetch: (input, init) => {
    process.stdout.write(`req ${++n}\n`);
    return fetch(input, init);
  },
});
const result = await services.api.syncNow();
process.stdout.write(`done ${result.ok ? result.value.status : result.error.code}\n`);
await services.close();
