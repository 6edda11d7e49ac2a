// Queues seeded work offline in a process of its own for the damage tests: prints "ack <json>" for each
// call the app answered with success (what the technician was told is saved), then "queued", and waits
// to be SIGKILLed. Usage: work-child.ts <dataDir> <guideid> <sessions>
import { childServices } from './child-services.ts';
import { ackedCalls } from './acked-work.ts';

const [dataDir, guideid, sessions] = process.argv.slice(2);
const services = childServices(dataDir);
for await (const ack of ackedCalls(services.api, Number(guideid), Number(sessions ?? 13)))
  process.stdout.write(`ack ${JSON.stringify(ack)}\n`);
process.stdout.write('queued\n');
setInterval(() => {}, 60_000);
