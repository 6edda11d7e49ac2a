// Replays an outbox in a process of its own, for the kill tests: prints "req <n>" as each request
// starts, and "done <pending>" at the end.
import { createServices } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/session/secret-store.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: outbox-child.ts <dataDir>');
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
let summary = await services.api.flushOutbox();
for (let i = 0; i < 10 && summary.ok && summary.value.pending > 0; i++) summary = await services.api.flushOutbox();
process.stdout.write(`done ${summary.ok ? summary.value.pending : summary.error.code}\n`);
await services.close();
