import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';

// Issue 15: a 404 on one guide's part is that guide's, not the site's. The reference server over real
// HTTP, through the fault proxy, answers 404 to one guide's step forms only: the site's probe said it has
// step forms, so the module stays offered and every other guide keeps its forms.
let site: RunningSite;
let proxy: FaultProxy;
const apps: ReturnType<typeof makeServices>[] = [];

async function syncedApp(): Promise<ReturnType<typeof makeServices>> {
  const app = makeServices();
  apps.push(app);
  await signInAndSync(app.services, proxy.url);
  return app;
}

async function guidesWithForms(app: ReturnType<typeof makeServices>): Promise<number[]> {
  const ids: number[] = [];
  for (const { guideid } of await allLocalGuides(app.services.api)) {
    if (unwrap(await app.services.api.getGuide(guideid)).steps.some((step) => step.form !== null)) ids.push(guideid);
  }
  return ids.sort((a, b) => a - b);
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
});
afterAll(async () => {
  for (const app of apps) await app.dispose();
  await proxy?.close();
  await site?.close();
});

describe('one guide whose step forms answer 404', () => {
  it('is stored without forms; the module stays offered and every other guide keeps its forms', async () => {
    const all = await guidesWithForms(await syncedApp());
    expect(all.length).toBeGreaterThan(1);
    // The first of them: on the old rule, every guide fetched after it lost its forms.
    const [broken, ...others] = all;
    proxy.setSchedule(
      onPaths(new RegExp(`/step_forms/guideid/${broken}$`), () => ({
        kind: 'status',
        status: 404,
        message: 'Not found',
      })),
    );

    const app = await syncedApp();
    expect(proxy.requestsTo(new RegExp(`/step_forms/guideid/${broken}$`)).length).toBeGreaterThan(0);
    expect(await guidesWithForms(app)).toEqual(others);
    expect(unwrap(await app.services.api.getStatus()).capabilities?.modules.step_forms).toBe('offered');
    expect((await allLocalGuides(app.services.api)).find((g) => g.guideid === broken)?.offline).toBe('full');
  });
});
