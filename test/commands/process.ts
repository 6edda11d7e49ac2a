import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

/**
 * A command running in a process group of its own (`npm run x` is npm, a shell, tsx and node), so that
 * stop() ends all of it. Its output is kept; waitFor() waits a bounded time for a line to appear.
 */
export interface RunningCommand {
  readonly child: ChildProcess;
  /** stdout and stderr as they arrived. */
  output(): string;
  stdout(): string;
  /** The first match of `pattern` in stdout; rejects after `timeoutMs` or when the command exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** The exit code (a signal counts as null); rejects after `timeoutMs`, the command still running. */
  exit(timeoutMs: number): Promise<number | null>;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader is gone. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<RunningCommand>();

/** Every command started by this file and not stopped yet: an afterAll stops them all. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((command) => command.stop()));
}

/**
 * `spawn` through `sh -c`, exactly as a person types `line` in a shell at the repository root.
 * `env` adds to (or, with undefined, removes from) this process's environment.
 */
export function runCommand(
  line: string,
  options: { env?: Record<string, string | undefined>; cwd?: string; args?: string[] } = {},
): RunningCommand {
  const env = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const [file, args] = options.args ? [line, options.args] : ['/bin/sh', ['-c', line]];
  const child = spawn(file, args, { cwd: options.cwd ?? root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let all = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    all += chunk.toString();
    changed();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    changed();
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code;
      changed();
      resolve(code);
    });
    child.once('error', (error) => {
      all += `\n[spawn error] ${error.message}`;
      exitCode = null;
      changed();
      resolve(null);
    });
  });

  const tail = () => all.slice(-3000);
  const command: RunningCommand = {
    child,
    output: () => all,
    stdout: () => out,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(out);
          if (match) return done(() => resolve(match));
          if (exitCode !== undefined)
            return done(() =>
              reject(new Error(`"${line}" exited (${exitCode}) before printing ${pattern}:\n${tail()}`)),
            );
        };
        const timer = setTimeout(
          () =>
            done(() => reject(new Error(`"${line}" printed no ${pattern} within ${timeoutMs / 1000} s:\n${tail()}`))),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    exit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        exited,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`"${line}" did not finish within ${timeoutMs / 1000} s:\n${tail()}`)),
            timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    },
    async stop(graceMs = 10_000) {
      running.delete(command);
      const signal = (name: NodeJS.Signals | 0): boolean => {
        try {
          process.kill(-child.pid!, name);
          return true;
        } catch {
          return false; // the group is gone
        }
      };
      if (child.pid === undefined) return;
      signal('SIGTERM');
      // Every process of the group gets the grace period to close (a server closes its database), not
      // only the group's leader; what is left after it is killed.
      const deadline = Date.now() + graceMs;
      while (signal(0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      signal('SIGKILL');
      await exited;
    },
  };
  running.add(command);
  return command;
}
