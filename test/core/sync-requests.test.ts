import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

// Issue 17: calls whose answer is already known are not made. Counted over real HTTP: the tags of a guide
// whose answer carries them, the deletion check of a library that was empty, a step picture's thumbnail.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const asked: string[] = [];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices(undefined, {
    http: (url, init) => {
      asked.push(url.pathname + url.search);
      return siteHttp(url, init);
    },
  });
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('what a sync does not ask', () => {
  it('a first sync asks no tags the guides carry, and no deletion check of an empty library', async () => {
    asked.length = 0;
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const guides = await allLocalGuides(app.services.api);
    expect(guides.length).toBeGreaterThan(5);
    // Each guide once, a prerequisite of several guides too (asked without the steps of its own prerequisites).
    const guideCalls = asked.filter((p) => /^\/api\/2\.0\/guides\/\d+(\?|$)/.test(p));
    expect(guideCalls.length).toBe(guides.length);
    expect(guideCalls.every((p) => p.endsWith('?excludePrerequisiteSteps=true'))).toBe(true);
    // At most the first guide's tags are asked, before the sync learns that the guides carry them.
    expect(asked.filter((p) => /\/guides\/\d+\/tags$/.test(p)).length).toBeLessThanOrEqual(6);
    expect(asked.filter((p) => p.includes('guideids=')).length).toBe(0);
    // A quiz several guides name has its courses asked once, not once per guide fetched beside the others.
    const shared = site.db
      .prepare('SELECT quizid FROM quiz_associations GROUP BY quizid HAVING count(DISTINCT guideid) > 1')
      .all() as { quizid: number }[];
    expect(shared.length).toBeGreaterThan(0);
    const courses = asked.filter((p) => p.includes('/quizzes/courseAssignments/'));
    expect(courses.length).toBeGreaterThan(0);
    expect(courses.length).toBe(new Set(courses).size);
    // The tags still reach the library, from the guides' own answers.
    const tagged = (site.db.prepare('SELECT DISTINCT guideid FROM guide_tags').all() as { guideid: number }[]).map(
      (r) => r.guideid,
    );
    expect(tagged.length).toBeGreaterThan(0);
    for (const guideid of tagged.filter((id) => guides.some((g) => g.guideid === id))) {
      expect(unwrap(await app.services.api.getGuide(guideid)).tags.length).toBeGreaterThan(0);
    }
  });

  it('a later sync checks for deletions, and a guide gone from the site goes from the library', async () => {
    const [gone] = await allLocalGuides(app.services.api);
    site.db.prepare('DELETE FROM guides WHERE guideid = ?').run(gone!.guideid);
    asked.length = 0;
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    expect(asked.filter((p) => p.includes('guideids=')).length).toBeGreaterThan(0);
    expect((await allLocalGuides(app.services.api)).some((g) => g.guideid === gone!.guideid)).toBe(false);
  });
});
