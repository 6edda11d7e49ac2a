import { describe, expect, it } from 'vitest';
import { always, onPaths } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { overProxyForFile } from '../helpers/services.ts';
import { api } from '../server/helpers.ts';

// A quiz revision answered with another's questions (a faulty site, answers mixed up on the way; the fault
// proxy's rewrite): not kept as this quiz's, or the technician would answer the other quiz's questions and
// their attempt be sent as this one's, passed or failed. The next sync whose answer is right keeps it.
const over = overProxyForFile(false);

const revisionOf = (title: string) =>
  (over.site.db.prepare('SELECT current_revisionid AS id FROM quizzes WHERE title = ?').get(title) as { id: number })
    .id;

describe('a quiz revision answered with another revision', () => {
  it('is not kept as this quiz; the next sync with the right answer keeps it', async () => {
    const { api: app_ } = over.app.services;
    const [asked, other] = [revisionOf('Air Compressor Safety'), revisionOf('Forklift Pre-Shift Check')];
    const theirs = (await api(over.site, 'GET', `/quizzes/${other}`)).body as object;
    over.proxy.setSchedule(
      onPaths(
        new RegExp(`^/api/2\\.0/quizzes/${asked}$`),
        always({ kind: 'rewrite', body: () => JSON.stringify(theirs) }),
      ),
    );
    let questions = '';
    try {
      const first = unwrap(await app_.syncNow());
      // Not the other quiz's questions under this quiz's title.
      const kept = await app_.getQuiz(asked);
      questions = JSON.stringify(unwrap(await app_.getQuiz(other)).survey);
      expect(kept.ok && JSON.stringify(kept.value.survey)).not.toBe(questions);
      expect(JSON.stringify(first.failedGuides)).toContain(`answered quiz revision ${asked} with revision ${other}`);
    } finally {
      over.proxy.passAll();
    }
    expect(unwrap(await app_.syncNow()).failedGuides).toEqual([]);
    const again = unwrap(await app_.getQuiz(asked));
    expect(again.title).toBe('Air Compressor Safety');
    expect(JSON.stringify(again.survey)).not.toBe(questions);
  });
});
