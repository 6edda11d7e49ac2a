// `npm run test:busy`: `npm test` while two other processes keep both cores of this machine busy
// (`yes > /dev/null` each), as when other work runs beside the tests. A test that passes only on an idle
// machine depends on wall-clock speed, and fails here. The two are stopped when the tests end, however
// they end; the wall time is printed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const BUSY = 2;
const sink = fs.openSync('/dev/null', 'w');
const busy = Array.from({ length: BUSY }, () => spawn('yes', [], { stdio: ['ignore', sink, 'ignore'] }));
const stopBusy = () => {
  for (const child of busy) if (child.exitCode === null) child.kill('SIGKILL');
};
process.on('exit', stopBusy);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const started = Date.now();
console.log(`npm test with ${BUSY} busy processes (yes > /dev/null), load ${fs.readFileSync('/proc/loadavg', 'utf8')}`);
const tests = spawn('npm', ['test'], { stdio: 'inherit' });
tests.on('exit', (code, signal) => {
  stopBusy();
  const seconds = Math.round((Date.now() - started) / 1000);
  const load = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  console.log(`npm test with both cores busy: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s (load ${load})`);
  process.exit(code ?? (signal ? 1 : 0));
});
