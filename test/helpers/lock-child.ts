// Holds a data folder in a process of its own for the lock tests: prints "ready <pid>" once the folder is
// held, then waits to be killed ("hold") or exits without closing anything ("exit").
import { childServices } from './child-services.ts';

childServices(process.argv[2]);
process.stdout.write(`ready ${process.pid}\n`);
if (process.argv[3] === 'exit') process.exit(0);
setInterval(() => {}, 60_000);
