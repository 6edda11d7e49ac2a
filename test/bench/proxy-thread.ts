// The outbox bench's proxy on a thread of its own. It stands for the network between the app and the
// site: on the client's own thread it took that thread's time from the replay (which has work to do
// between answers) more than from the bare client (which waits on each answer), so it measured the
// proxy beside the outbox. The client only closes it, starts it again on its port and counts requests.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { threadCpuMs } from './thread-cpu.ts';

type Command = { do: 'start'; port?: number } | { do: 'close' } | { do: 'count' } | { do: 'clear' } | { do: 'cpu' };
type Answer = { url: string; port: number } | { count: number } | { done: true } | { cpuMs: number | null };

export interface ThreadProxy {
  readonly url: string;
  readonly port: number;
  /** Requests seen since the last clear. */
  count(): Promise<number>;
  clear(): Promise<void>;
  close(): Promise<void>;
  /** The proxy thread's own CPU time so far (ms; thread-cpu.ts), or null where it cannot be read. */
  cpuMs(): Promise<number | null>;
}

/** Starts the proxy in front of `targetPort` on its own thread; `port` to listen where clients knew it. */
export async function startProxyThread(
  targetPort: number,
  port?: number,
): Promise<ThreadProxy & { restart(): Promise<void> }> {
  // TypeScript on the thread too: tsx's hooks are registered per thread, so the thread registers them first.
  const thisModule = JSON.stringify(import.meta.url);
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${thisModule}); })`;
  const worker = new Worker(load, { eval: true, workerData: { targetPort } });
  worker.unref();
  // One question at a time (the client awaits each), so the next message is its answer.
  let failed: Error | null = null;
  worker.on('error', (error) => (failed = error));
  const ask = (command: Command): Promise<Answer> => {
    if (failed) return Promise.reject(failed);
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      worker.once('error', onError);
      worker.once('message', (answer: Answer) => {
        worker.off('error', onError);
        resolve(answer);
      });
      worker.postMessage(command);
    });
  };
  const started = (await ask({ do: 'start', port })) as { url: string; port: number };
  return {
    url: started.url,
    port: started.port,
    count: async () => ((await ask({ do: 'count' })) as { count: number }).count,
    clear: async () => void (await ask({ do: 'clear' })),
    close: async () => void (await ask({ do: 'close' })),
    restart: async () => void (await ask({ do: 'start', port: started.port })),
    cpuMs: async () => ((await ask({ do: 'cpu' })) as { cpuMs: number | null }).cpuMs,
    // The thread ends with the process.
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { targetPort } = workerData as { targetPort: number };
  let proxy: FaultProxy | null = null;
  port.on('message', (command: Command) => {
    void (async (): Promise<Answer> => {
      switch (command.do) {
        case 'start':
          proxy = await startFaultProxy({ target: { port: targetPort }, port: command.port });
          return { url: proxy.url, port: proxy.port };
        case 'close':
          await proxy?.close();
          proxy = null;
          return { done: true };
        case 'count':
          return { count: proxy?.log.length ?? 0 };
        case 'clear':
          proxy?.clearLog();
          return { done: true };
        case 'cpu':
          return { cpuMs: threadCpuMs() };
      }
    })().then((answer) => port.postMessage(answer));
  });
}
