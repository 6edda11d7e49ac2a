// A sync in a process of its own, for the kill tests; prints "done <status>" at the end.
import { childServices } from './child-services.ts';

const services = childServices(process.argv[2]);
const result = await services.api.syncNow();
process.stdout.write(`done ${result.ok ? result.value.status : result.error.code}\n`);
await services.close();
