import { afterAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { startRewriteProxy, type Rewrite } from '../helpers/rewrite-proxy.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 25: what real sites answer that the client dropped or misread. One odd category leaf dropped the
// whole tree; errors come as `{error: true, message}` as well as `{message, errors}`; a video step may
// carry only its id; documents have a page of their own (`view_url`); embeds have a title; parts and tools
// may be optional; the time a guide takes comes in seconds. Over real HTTP, both dialects.

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

async function appOn(dialect: Dialect, rewrite?: Rewrite) {
  const site: RunningSite = await startDemoSite({ dialect });
  closing.push(() => site.close());
  const proxy = await startRewriteProxy(site.port);
  closing.push(() => proxy.close());
  if (rewrite) proxy.set(rewrite);
  const app = makeServices();
  closing.push(() => app.dispose());
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  return { api: app.services.api, site, proxy };
}

describe('a category tree with one odd branch', () => {
  it("keeps every sound branch and names the odd one as the sync's problem", async () => {
    const tree = {
      'Shop Safety': { Lockout: null },
      Forklifts: { Hoses: 'see the forklift page', Masts: {} },
      Welding: [],
      Broken: 42,
    };
    const { api } = await appOn('dozuki', ({ path }) =>
      path.startsWith('/api/2.0/categories') ? { body: JSON.stringify(tree) } : null,
    );
    const outcome = unwrap(await api.syncNow());
    const names = (nodes: { name: string; children: unknown[] }[]): string[] =>
      nodes.flatMap((node) => [node.name, ...names(node.children as typeof nodes)]);
    expect(names(unwrap(await api.getCategories())).sort()).toEqual([
      'Forklifts',
      'Lockout',
      'Masts',
      'Shop Safety',
      'Welding',
    ]);
    expect(outcome.error?.message).toBe(
      'The site\'s category "Forklifts › Hoses" is not in the form of a category ' +
        '(a list of subcategories, or none), so it was left out.',
    );
    expect(outcome.failedGuides).toEqual([]);
  });
});

describe('error bodies in either shape', () => {
  for (const [shape, body, said] of [
    ['iFixit', { error: true, message: 'The database is resting' }, 'The database is resting'],
    ['the reference', { message: 'Guide under review', errors: [{ message: 'locked' }] }, 'Guide under review'],
    ['errors only', { errors: [{ field: 'guideid', message: 'guideid is locked' }] }, 'guideid is locked'],
  ] as const) {
    it(`reads ${shape}'s words into the failed guide's message`, async () => {
      const guide = id('mig-tip');
      const { api } = await appOn('dozuki', ({ path }) =>
        path.startsWith(`/api/2.0/guides/${guide}?`) || path === `/api/2.0/guides/${guide}`
          ? { status: 409, body: JSON.stringify(body) }
          : null,
      );
      const outcome = unwrap(await api.syncNow());
      expect(outcome.failedGuides.map((failed) => [failed.guideid, failed.message])).toEqual([[guide, said]]);
    });
  }
});

for (const dialect of ['dozuki', 'ifixit'] as Dialect[]) {
  describe(`what a technician uses of a guide, ${dialect} dialect`, () => {
    let api: Awaited<ReturnType<typeof appOn>>['api'];
    let site: RunningSite;
    const guide = async (key: string): Promise<GuideDetail> => unwrap(await api.getGuide(id(key)));

    it('syncs', async () => {
      ({ api, site } = await appOn(dialect));
      expect(unwrap(await api.syncNow()).status).toBe('complete');
    });

    it('a video (a step that carries only its id on iFixit), its encoding for this screen first', async () => {
      const step = (await guide('compressor-drain')).steps.find((s) => s.media.type === 'video')!;
      expect(step.media.type).toBe('video');
      if (step.media.type !== 'video') return;
      // The demo video's encodings: 320x240 MP4 and WebM, 640x480 MP4. The largest MP4 that fits goes first.
      expect(step.media.encodings.map((e) => `${e.width}x${e.height} ${e.format}`)).toEqual([
        '640x480 mp4',
        '320x240 mp4',
        '320x240 webm',
      ]);
      expect(step.media.poster?.standard).toMatch(/^http/);
    });

    it("documents with the site's page for them and the file kept", async () => {
      const [document] = (await guide('forklift-inspection')).documents;
      expect(document!.url).toMatch(/\/documents\/.+\.pdf$/);
      expect(document!.viewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/Document\/.+\.pdf$/);
      const page = await fetch(new URL(new URL(document!.viewUrl!).pathname, site.url));
      expect(page.status).toBe(200);
    });

    it('embeds with their title and address', async () => {
      const step = (await guide('forklift-lp-tank')).steps.find((s) => s.media.type === 'embed')!;
      expect(step.media).toMatchObject({
        type: 'embed',
        title: "LP tank change, from the operator's side",
        url: 'https://www.example.com/embed/lp-tank-change',
      });
    });

    it('optional tools marked, and the time required in seconds', async () => {
      const tank = await guide('forklift-lp-tank');
      expect(tank.tools.map((tool) => [tool.text, tool.optional])).toContainEqual(['Leak detector solution', true]);
      expect(tank.tools.filter((tool) => tool.optional)).toHaveLength(1);
      expect(tank.timeRange).toEqual({ min: 5 * 60, max: 10 * 60 });
    });
  });
}
