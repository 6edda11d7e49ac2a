// Starts work sessions in a process of its own for the lock tests: prints "req <n>" as each request
// starts, "done <pending>" once its outbox has drained, then exits.
// Usage: start-child.ts <dataDir> <guideid> <sessions>
import { childServices } from './child-services.ts';

const [dataDir, guideid, sessions] = process.argv.slice(2);
const services = childServices(dataDir);
for (let i = 0; i < Number(sessions); i++) {
  const started = await services.api.startSession({ guideid: Number(guideid), workorderid: `HELD-${i}` });
  if (!started.ok) throw new Error(started.error.message);
}
let summary = await services.api.flushOutbox();
for (let i = 0; i < 10 && summary.ok && summary.value.pending > 0; i++) summary = await services.api.flushOutbox();
process.stdout.write(`done ${summary.ok ? summary.value.pending : summary.error.code}\n`);
await services.close();
