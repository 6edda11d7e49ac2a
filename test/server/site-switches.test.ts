import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { systemClock } from '../../server/context.ts';
import { startDemoSite } from '../../server/site.ts';

// The switches that play other sites (issue 15): modules the site lacks answer 404 as on a site that
// never had them, a members-only site answers nothing but sign-in without a token, and media can live
// on a second origin that guide JSON points at.
async function token(apiUrl: string): Promise<string> {
  const { email, password } = DEMO_ACCOUNTS.tech1;
  const answer = await fetch(`${apiUrl}/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await answer.json()) as { authToken: string }).authToken;
}

describe('reference server switches', () => {
  it('--without: each module left out answers 404 on its endpoints, the rest as before', async () => {
    const site = await startDemoSite({
      without: ['step_forms', 'quizzes', 'work_log', 'tags', 'categories', 'comments', 'user_media'],
    });
    try {
      const auth = { Authorization: `api ${await token(site.apiUrl)}` };
      const [first] = (await (await fetch(`${site.apiUrl}/guides?limit=1`)).json()) as { guideid: number }[];
      for (const path of [
        `/step_forms/guideid/${first!.guideid}`,
        `/guides/${first!.guideid}/tags`,
        '/tags',
        '/categories',
        `/quizzes/associations/${first!.guideid}`,
        '/work_log',
        '/comments',
        '/user/media/current',
      ]) {
        expect((await fetch(`${site.apiUrl}${path}`, { headers: auth })).status, path).toBe(404);
      }
      expect(
        (
          await fetch(`${site.apiUrl}/quizzes/getQuizzes`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(404);
      expect((await fetch(`${site.apiUrl}/guides/${first!.guideid}`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${site.apiUrl}/user`, { headers: auth })).status).toBe(200);
    } finally {
      await site.close();
    }
  });

  it('--members-only: 401 without a token, sign-in still answers', async () => {
    const site = await startDemoSite({ publicReads: false });
    try {
      expect((await fetch(`${site.apiUrl}/guides`)).status).toBe(401);
      const auth = { Authorization: `api ${await token(site.apiUrl)}` };
      expect((await fetch(`${site.apiUrl}/guides`, { headers: auth })).status).toBe(200);
    } finally {
      await site.close();
    }
  });

  it(
    '--media-origin: ' +
      'guide JSON points media at the second origin, which serves files only and never with credentials',
    async () => {
      const site = await startDemoSite({ mediaOrigin: true });
      try {
        expect(site.mediaUrl).not.toBeNull();
        expect(new URL(site.mediaUrl!).origin).not.toBe(new URL(site.url).origin);
        const [first] = (await (await fetch(`${site.apiUrl}/guides?limit=1`)).json()) as { guideid: number }[];
        const text = await (await fetch(`${site.apiUrl}/guides/${first!.guideid}`)).text();
        const urls = [...text.matchAll(/"(http:[^"]+\/igi\/[^"]+)"/g)].map((m) => m[1]!);
        expect(urls.length).toBeGreaterThan(0);
        expect(urls.every((url) => url.startsWith(`${site.mediaUrl}/igi/`))).toBe(true);
        expect((await fetch(urls[0]!)).status).toBe(200);
        expect((await fetch(urls[0]!, { headers: { Authorization: 'api secret' } })).status).toBe(400);
        expect((await fetch(`${site.mediaUrl}/api/2.0/guides`)).status).toBe(404);
      } finally {
        await site.close();
      }
    },
  );
  it("--clock-offset: every answer is dated on the node's own clock", async () => {
    const site = await startDemoSite({ clock: systemClock(3600) });
    try {
      const answer = await fetch(`${site.apiUrl}/guides?limit=1`);
      const date = Date.parse(answer.headers.get('date') ?? '') / 1000;
      expect(Math.abs(date - (Date.now() / 1000 + 3600))).toBeLessThan(5);
    } finally {
      await site.close();
    }
  });

  it('--slow-writes: a start is applied late even when the client gave up, and answered once applied', async () => {
    const site = await startDemoSite({ slowWrites: { ms: 1500 } });
    try {
      const auth = { Authorization: `api ${await token(site.apiUrl)}`, 'Content-Type': 'application/json' };
      const [first] = (await (await fetch(`${site.apiUrl}/guides?limit=1`)).json()) as { guideid: number }[];
      const body = JSON.stringify({ guideid: first!.guideid, workorderid: 'WO-SLOW' });
      const entries = async (): Promise<unknown[]> => {
        const answer = await fetch(`${site.apiUrl}/work_log?workorderid=WO-SLOW`, { headers: auth });
        return ((await answer.json()) as { results: unknown[] }).results;
      };
      const signal = AbortSignal.timeout(300);
      const post = { method: 'POST', headers: auth, body };
      const gaveUp = await fetch(`${site.apiUrl}/work_log`, { ...post, signal }).catch((e: unknown) => e);
      expect(gaveUp).toBeInstanceOf(Error);
      expect(await entries()).toHaveLength(0);
      const waited = await fetch(`${site.apiUrl}/work_log`, post);
      expect(waited.status).toBe(201);
      // Both were applied: the one the client gave up on too.
      expect(await entries()).toHaveLength(2);
    } finally {
      await site.close();
    }
  });
});
