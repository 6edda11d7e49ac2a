// The CPU time of the calling thread (user and system, ms), from Linux's /proc/thread-self: what
// process.cpuUsage() cannot tell apart (it sums every thread of the process: the main thread, V8's
// collector and compiler threads, libuv's pool, a worker). Null elsewhere. Counted in the kernel's
// clock ticks (10 ms at the usual 100 Hz), so a figure of a few hundred ms is good to a few per cent.
import fs from 'node:fs';

const TICK_MS = 10;

export function threadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command's name (which may hold spaces), in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}
