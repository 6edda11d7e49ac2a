import { spawn } from 'node:child_process';

/** Runs a TypeScript child that prints "req <n>" per request; SIGKILLs it at request `killAt` (never if null). */
export function runKillableChild(
  script: string,
  args: string[],
  killAt: number | null,
): Promise<{ requests: number; killed: boolean; last: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let requests = 0;
    let last = '';
    let killed = false;
    let buffered = '';
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        last = line;
        if (line.startsWith('req ')) requests = Number(line.slice(4));
        if (killAt !== null && requests >= killAt && !killed) {
          killed = true;
          proc.kill('SIGKILL');
        }
      }
    });
    const guard = setTimeout(() => proc.kill('SIGKILL'), 60_000);
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (!killed && code !== 0) reject(new Error(`child exited ${code ?? signal}: ${stderr}`));
      else resolve({ requests, killed, last });
    });
  });
}
