import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// A quiz walk with every kind of question the site can serve: choices of three lines ran into each other
// (where one ended was read from its radio button alone), and the keyboard's place on a rating or a
// ranking was SurveyJS's thin line, not the app's ring. The choices stand apart; the ring is drawn.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });
const TITLE = 'Compressor every kind';
const LONG = [
  'Tag the compressor out of service and replace the relief valve with one of the same rating, set pressure and ' +
    'ASME stamp, then test it before the compressor runs again',
  'Tighten the valve further into its port until it stops weeping, then note it in the daily log for the next ' +
    'shift to check again before they run it',
  'Plug the valve port until a new valve arrives',
];
const SURVEY = {
  pages: [
    {
      name: 'one',
      elements: [
        { type: 'radiogroup', name: 'weeps', title: 'The relief valve weeps below set pressure:', choices: LONG },
        { type: 'text', name: 'drain', title: 'Type the word "drain"', correctAnswer: 'drain' },
        { type: 'rating', name: 'rate', title: 'Drains a day on two shifts', rateMax: 5, correctAnswer: 2 },
        {
          type: 'ranking',
          name: 'order',
          title: 'Put these in order',
          choices: ['Lock out', 'Bleed the tank', 'Remove the guard'],
          correctAnswer: ['Lock out', 'Bleed the tank', 'Remove the guard'],
        },
      ],
    },
  ],
};

/** The outline drawn round the element the keyboard is on, or round its label (a rating's radio is hidden). */
const ringOfFocused = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const focused = document.activeElement!;
    const drawn = focused.closest('label') ?? focused;
    const style = getComputedStyle(drawn);
    return {
      kind: focused.closest('[data-name]')?.getAttribute('data-name'),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });

describe('a quiz of every kind of question', () => {
  it('long choices stand apart, and the keyboard is ringed on a rating and a ranking', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const db = demo.site().db;
    const now = Math.floor(Date.now() / 1000);
    const quizid = Number(
      db
        .prepare("INSERT INTO quizzes (title, description, passing_score, created, modified) VALUES (?, '', 70, ?, ?)")
        .run(TITLE, now, now).lastInsertRowid,
    );
    const insert = db.prepare('INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)');
    const revision = Number(insert.run(quizid, JSON.stringify(SURVEY), now).lastInsertRowid);
    db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(revision, quizid);
    db.prepare('INSERT INTO quiz_associations (guideid, quizid, created) VALUES (?, ?, ?)').run(3, quizid, now);
    unwrap(await api.syncNow());
    await page.goto(new URL(`/quizzes/${revision}`, app.shell.url).toString());
    await page.getByTestId('quiz-survey').waitFor();
    // Between one choice's last line and the next one's first: more than between its own lines.
    const labels = page.locator('[data-name="weeps"] .sd-item__control-label');
    const boxes = await labels.evaluateAll((els) =>
      els.map((el) => {
        const box = el.getBoundingClientRect();
        return {
          top: box.top,
          bottom: box.bottom,
          lines: Math.round(box.height / parseFloat(getComputedStyle(el).lineHeight)),
        };
      }),
    );
    expect(boxes[0]!.lines).toBeGreaterThan(1);
    const lineHeight = await labels.first().evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    const gap = boxes[1]!.top - boxes[0]!.bottom;
    expect(gap).toBeGreaterThanOrEqual(lineHeight / 2);
    await page.locator('[data-name="weeps"]').screenshot({ path: artifact('quiz-kinds-long-choices.png') });

    // By keyboard from the typed answer: Tab onto the rating, then onto the ranking.
    await page.locator('[data-name="drain"] input').focus();
    await page.keyboard.press('Tab');
    const rating = await ringOfFocused(page);
    expect(rating.kind).toBe('rate');
    expect(rating.outline).toBe('solid 3px');
    await page.locator('[data-name="rate"]').screenshot({ path: artifact('quiz-kinds-rating-focus.png') });
    for (let i = 0; i < 8 && (await ringOfFocused(page)).kind !== 'order'; i++) await page.keyboard.press('Tab');
    const ranking = await ringOfFocused(page);
    expect(ranking.kind).toBe('order');
    expect(ranking.outline).toBe('solid 3px');
    await page.locator('[data-name="order"]').screenshot({ path: artifact('quiz-kinds-ranking-focus.png') });
    expect(pageErrors).toEqual([]);
  });
});
