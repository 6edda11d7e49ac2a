// A sync in a process of its own, for the kill tests; prints "done <status>" at the end.
import { childServices } from './child-services.ts';

const services = childServices(process.argv[2]);
const result = await services.api.syncNow();
// A sync that did not complete says why, for the parent's message.
const why = result.ok ? (result.value.error?.message ?? '') : result.error.message;
const status = result.ok ? result.value.status : result.error.code;
process.stdout.write(`done ${status}${status === 'complete' || !why ? '' : ` (${why})`}\n`);
await services.close();
