import { createServices, type Services } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

/**
 * Core services for a child process of the kill tests: prints "req <n>" as each request of the work
 * starts, so the parent can SIGKILL it at a seeded request.
 */
export function childServices(dataDir: string | undefined): Services {
  if (!dataDir) throw new Error('usage: <child>.ts <dataDir>');
  let n = 0;
  return createServices({
    dataDir,
    version: '0.0.0-test',
    secretCodec: plainCodec,
    startDemoWorkshop: () => Promise.reject(new Error('no demo in the kill tests')),
    autoSync: false,
    http: (url, init) => {
      // Not the front lane's warm questions (sync/front-lane.ts): they come on a clock, not with the work,
      // so the count of a run would depend on its speed, and a seeded point could lie past a run's end.
      if (init.lane !== 'front-warmth') process.stdout.write(`req ${++n}\n`);
      return siteHttp(url, init);
    },
  });
}
