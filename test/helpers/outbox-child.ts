// An outbox replay in a process of its own, for the kill tests; prints "done <pending>" at the end.
import { childServices } from './child-services.ts';

const services = childServices(process.argv[2]);
let summary = await services.api.flushOutbox();
for (let i = 0; i < 10 && summary.ok && summary.value.pending > 0; i++) summary = await services.api.flushOutbox();
process.stdout.write(`done ${summary.ok ? summary.value.pending : summary.error.code}\n`);
await services.close();
