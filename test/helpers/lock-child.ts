// Holds a data folder in a process of its own for the lock tests: prints "ready <pid>" once the folder is
// held, then waits to be killed ("hold") or exits without closing anything ("exit"). "forgotten" keeps no
// reference to what it made and collects the garbage first (run with --expose-gc): the lock holds all the same.
import { setTimeout as wait } from 'node:timers/promises';
import { childServices } from './child-services.ts';

const mode = process.argv[3];
const kept = mode === 'forgotten' ? void childServices(process.argv[2]) : childServices(process.argv[2]);
if (mode === 'forgotten') {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await wait(50);
  }
}
process.stdout.write(`ready ${process.pid}\n`);
if (mode === 'exit') process.exit(0);
setInterval(() => kept, 60_000);
