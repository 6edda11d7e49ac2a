import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi, GuideDetail } from '../../electron/contract.ts';
import { siteHttp, type Http } from '../../electron/core/api/http.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { photoAndQuizGuide } from '../helpers/technicians.ts';
import { api as siteApi, signIn, startTestSite } from '../server/helpers.ts';

// A technician signs out while their work is being sent: an action whose request is out is answered as it
// comes, but nothing more of theirs leaves this laptop after the sign-out, under their name or any other.
// Here a pause goes out with a revision the site no longer has (the session changed on another computer);
// while its answer (409) is on its way, tech1 signs out. The pause rebased on the site's revision would be a
// second request, sent with tech1's token after tech1 signed out. It must wait for tech1 instead, and go
// once they sign in again. Real HTTP to the reference site; the test only holds one answer back.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let guide: GuideDetail;

interface Sent {
  request: string;
  token: string | null;
  afterSignOut: boolean;
}
const sent: Sent[] = [];
let signedOut = false;
let hold: { match: RegExp; reached: () => void; release: Promise<void> } | null = null;

/** The app's own HTTP client, watched: every request's token, and one answer held back when asked. */
const watched: Http = async (url, init) => {
  const request = `${init.method ?? 'GET'} ${url.pathname}`;
  const token = init.headers.Authorization?.replace(/^api /, '') ?? null;
  sent.push({ request, token, afterSignOut: signedOut });
  const answer = await siteHttp(url, init);
  const held = hold;
  if (held && held.match.test(request)) {
    hold = null;
    held.reached();
    await held.release;
  }
  return answer;
};

const tech1Password = { email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password };

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  const guideid = photoAndQuizGuide(site);
  app = makeServices(undefined, { http: watched });
  api = app.services.api;
  unwrap(await api.signIn({ siteUrl: site.url, ...tech1Password }));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  const synced = unwrap(await api.syncNow());
  expect(synced.status, synced.error?.message).toBe('complete');
  guide = unwrap(await api.getGuide(guideid));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('a sign-out while the work is being sent', () => {
  it("sends nothing more with tech1's token once tech1 signed out; the rebased pause waits for them", async () => {
    const started = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-SIGN-OUT-1' }));
    unwrap(await api.flushOutbox());
    const entryid = unwrap(await api.getSession(started.id)).entryid!;
    expect(entryid).toBeGreaterThan(0);

    // On another computer tech1 paused and resumed the session: the site's revision moved on.
    const other = await signIn(site, 'tech1');
    for (const transition of ['pause', 'resume']) {
      const { revisionid } = (await siteApi(site, 'GET', `/work_log/${entryid}`, { token: other.token })).body;
      const moved = await siteApi(site, 'POST', `/work_log/${entryid}/${transition}`, {
        token: other.token,
        query: { revisionid },
        json: { timestamp: Math.floor(Date.now() / 1000) },
      });
      expect(moved.status, moved.text).toBe(200);
    }

    // This laptop's pause goes with the revision it knew; its answer (a conflict) is held on the way.
    let reached!: () => void;
    let release!: () => void;
    const out = new Promise<void>((resolve) => (reached = resolve));
    hold = { match: /^POST \/api\/2\.0\/work_log\/\d+\/pause$/, reached, release: new Promise((r) => (release = r)) };
    unwrap(await api.transitionSession({ sessionId: started.id, transition: 'pause' }));
    const flushing = api.flushOutbox();
    await out;
    const tokens = new Set(sent.map((s) => s.token).filter((token) => token !== null && token !== other.token));
    expect(tokens.size, 'one app token of tech1 in use').toBe(1);

    unwrap(await api.signOut());
    signedOut = true;
    release();
    unwrap(await flushing);

    // Nothing went with tech1's token after the sign-out, and the pause waits for tech1, not refused.
    expect(sent.filter((s) => s.afterSignOut && s.token !== null && tokens.has(s.token)).map((s) => s.request)).toEqual(
      [],
    );
    const waiting = unwrap(await api.getOutbox()).summary;
    expect(waiting.failed).toBe(0);
    expect(waiting.others).toEqual([
      expect.objectContaining({ username: DEMO_ACCOUNTS.tech1.username, signIn: 'signed_out', unsent: 1 }),
    ]);

    // tech1 signs in again: the pause goes, once, on the site's revision.
    unwrap(await api.signIn({ siteUrl: site.url, ...tech1Password }));
    const after = unwrap(await api.flushOutbox());
    expect(after).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    const onSite = await siteApi(site, 'GET', `/work_log/${entryid}`, { token: other.token });
    expect(onSite.body.status).toBe('paused');
    const pauses = sent.filter((s) => /\/pause$/.test(s.request));
    expect(
      pauses.map((s) => s.afterSignOut),
      'the held pause, then the one sent after signing in again',
    ).toEqual([false, true]);
  });
});
