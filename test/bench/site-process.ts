import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The reference server in a process of its own (its CPU and memory are not the client's). */
export async function startSiteProcess(
  args: string[],
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'server/cli.ts'), '--port', '0', ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the site did not start: ${out}`)), 600_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    proc.on('exit', (code) => reject(new Error(`the site exited with ${code}: ${out}`)));
  });
  return {
    url,
    // For a test that stops the process (SIGSTOP: a site that hangs) and lets it go on (SIGCONT).
    pid: proc.pid!,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** Runs a TypeScript child (in `env`, else this process's environment) and parses the JSON it prints last. */
export function runJsonChild<T>(script: string, args: string[], env?: NodeJS.ProcessEnv): Promise<T> {
  return new Promise((resolve, reject) => {
    // BENCH_CPU_PROF=<dir>: each client writes a V8 CPU profile there (open it in Chrome's DevTools).
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
    const proc = spawn(
      process.execPath,
      ['--expose-gc', ...profile, '--import', 'tsx', path.join(import.meta.dirname, script), ...args],
      {
        cwd: root,
        env: env ?? process.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} printed no JSON: ${out.slice(-500)}`));
      }
    });
  });
}
