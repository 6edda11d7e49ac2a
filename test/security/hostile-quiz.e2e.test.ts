import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, openDemoApp, type startApp } from '../e2e/browser.ts';
import { startListener, type Listener } from './http.ts';

// Issue 26, attack 3, in Chromium: a site's quiz drove the window. SurveyJS got the site's JSON as it
// came: text processing put values into an html question, then survey-core 3.0.0 ran onProcessHtml (where
// DOMPurify was) and processed the text again, so a value that names another (`{who}` holding
// `{payload}`) came back as raw HTML after DOMPurify ran: a fixed overlay covered the top bar and a
// `<meta http-equiv=refresh>` sent the tab to another site with no click. `navigateToUrl` sent it away on
// submit; `cookieName` wrote a cookie (over the launch cookie, when named so); `choicesByUrl` and `logo`
// fetched from anywhere. Quizzes from the site must be data.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
let tracker: Listener;
const pageErrors: string[] = [];
const TITLE = 'Shop safety refresher';
const COOKIE = 'quiz_seen';

function hostileSurvey(trackerUrl: string) {
  const overlay =
    '<div data-testid="quiz-overlay" style="position: fixed; inset: 0; z-index: 2147483647; background-color: white">' +
    'Session expired, sign in here</div>' +
    `<meta http-equiv="refresh" content="0;url=${trackerUrl}/refreshed">`;
  return {
    navigateToUrl: `${trackerUrl}/navigated`,
    cookieName: COOKIE,
    surveyPostId: '5af48e08-a0a5-44a5-83f4-1c90e8e98de1',
    logo: `${trackerUrl}/logo.png`,
    pages: [
      {
        elements: [
          { type: 'text', name: 'who', title: 'Your name', defaultValue: '{payload}' },
          { type: 'text', name: 'payload', title: 'Notes', defaultValue: overlay },
          { type: 'html', name: 'greeting', html: '<p>Welcome back, {who}.</p>' },
          { type: 'dropdown', name: 'bay', title: 'Your bay', choicesByUrl: { url: `${trackerUrl}/choices` } },
          { type: 'radiogroup', name: 'guards', choices: ['Always', 'Sometimes'], correctAnswer: 'Always' },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  tracker = await startListener({ type: 'text/html', body: '<title>Attacker</title><p>Attacker page</p>' });
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await tracker?.close();
});

describe("a site's quiz is data", () => {
  it('syncs a quiz that tries to drive the window', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    const db = demo.site().db;
    const now = Math.floor(Date.now() / 1000);
    const trackerUrl = tracker.url;
    const insertQuiz = `INSERT INTO quizzes (title, description, passing_score, created, modified)
      VALUES (?, '', 50, ?, ?)`;
    const quizid = Number(db.prepare(insertQuiz).run(TITLE, now, now).lastInsertRowid);
    const survey = JSON.stringify(hostileSurvey(trackerUrl));
    const insertRevision = 'INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)';
    const revision = Number(db.prepare(insertRevision).run(quizid, survey, now).lastInsertRowid);
    db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(revision, quizid);
    const { guideid } = db.prepare('SELECT guideid FROM guides ORDER BY guideid LIMIT 1').get() as { guideid: number };
    db.prepare('INSERT INTO quiz_associations (guideid, quizid, created) VALUES (?, ?, ?)').run(guideid, quizid, now);
    expect((await app.app.services.api.syncNow()).ok).toBe(true);
  });

  it('shows it without covering the app, moving the tab or fetching anything', async () => {
    await page.getByTestId('nav-quizzes').click();
    await page.getByTestId('quiz-row').filter({ hasText: TITLE }).getByTestId('quiz-open').click();
    // Time for a refresh to fire: the tab must still be the app's.
    await page.waitForTimeout(2000);
    await page.screenshot({ path: artifact('hostile-quiz.png') });
    expect(new URL(page.url()).origin).toBe(app.shell.url);
    await page.getByTestId('quiz-survey').waitFor({ timeout: 5000 });
    await page.getByText('Welcome back,').waitFor({ timeout: 5000 });
    const top = await page.evaluate(
      () => document.elementFromPoint(innerWidth / 2, 20)?.closest('.top-bar')?.className ?? 'none',
    );
    expect(top).toContain('top-bar');
    const overlay = page.getByTestId('quiz-overlay');
    if ((await overlay.count()) > 0) {
      expect(await overlay.first().evaluate((el) => getComputedStyle(el).position)).toBe('static');
    }
    expect(await page.locator('.quiz-survey meta').count()).toBe(0);
    expect(tracker.requests).toEqual([]);
  });

  it('submits without leaving the app, and no cookie is written', async () => {
    await page.locator('[data-name="guards"]').getByText('Always', { exact: true }).click();
    await page.locator('.sd-navigation__complete-btn').click();
    await page.getByTestId('quiz-result').waitFor();
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).origin).toBe(app.shell.url);
    expect(tracker.requests).toEqual([]);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain(COOKIE);
  });

  it('refuses any navigation the page itself starts, whatever put it there', async () => {
    const trackerUrl = tracker.url;
    await page.evaluate((url) => {
      const meta = document.createElement('meta');
      meta.httpEquiv = 'refresh';
      meta.content = `0;url=${url}/meta`;
      document.body.append(meta);
    }, trackerUrl);
    await page.waitForTimeout(1000);
    await page.evaluate((url) => {
      location.href = `${url}/location`;
    }, trackerUrl);
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).origin).toBe(app.shell.url);
    expect(tracker.requests).toEqual([]);
    // The app itself still moves between its views.
    await page.getByTestId('nav-library').click();
    await page.getByTestId('library').waitFor();
    expect(pageErrors.filter((e) => !e.includes('Content Security Policy'))).toEqual([]);
  });
});
