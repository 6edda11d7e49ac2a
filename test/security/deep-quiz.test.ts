import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { makeServices } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';

// Issue 26, attack 7: a quiz nested 200,000 levels deep (1.2 MB) failed the three guides it belongs to
// in every sync with a RangeError. The guides must be stored, the quiz refused with its reason. The core
// against the real reference server, through a proxy that answers the quiz as a hostile site would.
const LEVELS = 200_000;
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
let app: ReturnType<typeof makeServices>;
let quiz: { quizid: number; quizRevisionid: number };
let guideids: number[];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  quiz = site.db
    .prepare("SELECT quizid, current_revisionid AS quizRevisionid FROM quizzes WHERE title = 'Air Compressor Safety'")
    .get() as typeof quiz;
  const associated = site.db.prepare('SELECT guideid FROM quiz_associations WHERE quizid = ?').all(quiz.quizid);
  guideids = (associated as { guideid: number }[]).map((row) => row.guideid);
  const deep = `{"pages":[{"elements":${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}}]}`;
  const body = `{"quizid":${quiz.quizid},"quizRevisionid":${quiz.quizRevisionid},"title":"Deep","survey":${deep}}`;
  proxy = await startRewriteProxy(site.port);
  proxy.set(({ path }) => (path.split('?')[0] === `/api/2.0/quizzes/${quiz.quizRevisionid}` ? { body } : null));
  app = makeServices();
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a quiz nested too deep', () => {
  it('leaves its three guides stored in every sync, and the quiz refused with its reason', async () => {
    expect(guideids).toHaveLength(3);
    const { email, password } = DEMO_ACCOUNTS.tech1;
    unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
    for (let round = 0; round < 2; round++) {
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.failedGuides, `sync ${round + 1}`).toEqual([]);
      for (const guideid of guideids) {
        const guide = unwrap(await app.services.api.getGuide(guideid));
        expect(guide.quizzes.map((q) => q.quizRevisionid)).toContain(quiz.quizRevisionid);
      }
    }
    const opened = await app.services.api.getQuiz(quiz.quizRevisionid);
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error.code).toBe('invalid_input');
    expect(opened.error.message).toMatch(/nested deeper than \d+ levels/);
    // The other quizzes of the site are as they were.
    const quizzes = unwrap(await app.services.api.listQuizzes());
    expect(quizzes.length).toBeGreaterThan(1);
  });
});
