import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuizAttempt, QuizRevision } from '../../electron/contract.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, fullViewShot, openDemoApp, sendNowUnlessGone, withAnswersHeld, type startApp } from './browser.ts';
import { focusedOn } from './focus.ts';
import { checkLargerText, checkScreen, expectLargerTextFits, formatProblems, VIEWPORTS } from './screen-checks.ts';

// Acceptance 1 of issue 6 in Chromium (and 3 in the view): with the demo site stopped, one quiz passed,
// one failed, a reload in the middle of a third brings its answers back; with the site back the outbox
// sends both attempts and the site records their scores and pass or fail. A quiz of a type nobody can
// score shows the App API's message and nothing else is affected.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

const COMPRESSOR = { title: 'Air Compressor Safety', guide: 'Drain and Inspect the Air Compressor Tank' };
const FORKLIFT = 'Forklift Pre-Shift Check';
const BANDSAW = 'Band Saw Blade Change';
const BROKEN = { title: 'Broken quiz', guide: 'Replace the Drive Belt on a 60-Gallon Air Compressor' };

interface Question {
  type: string;
  name: string;
  choices?: string[];
  correctAnswer: unknown;
  labelTrue?: string;
  labelFalse?: string;
}

/** The quiz JSON as the app stores it (the App API's getQuiz), pages of questions. */
const quizzes = new Map<string, QuizRevision>();
const pagesOf = (title: string): Question[][] =>
  (quizzes.get(title)!.survey as { pages: { elements: Question[] }[] }).pages.map((p) => p.elements);

function wrong(q: Question): unknown {
  switch (q.type) {
    case 'boolean':
      return !q.correctAnswer;
    case 'checkbox':
      return [q.choices!.find((c) => !(q.correctAnswer as string[]).includes(c))!];
    case 'text':
      return 'no idea';
    default:
      return q.choices!.find((c) => c !== q.correctAnswer)!;
  }
}

/** Answers one question the way a technician does: clicks, the dropdown's list, typing. */
async function answer(q: Question, value: unknown): Promise<void> {
  const question = page.locator(`[data-name="${q.name}"]`);
  switch (q.type) {
    case 'radiogroup':
      await question.getByText(String(value), { exact: true }).click();
      break;
    case 'checkbox':
      for (const choice of value as string[]) await question.getByText(choice, { exact: true }).click();
      break;
    case 'boolean':
      await question
        .locator('.sd-boolean__label')
        .getByText(value ? (q.labelTrue ?? 'Yes') : (q.labelFalse ?? 'No'), { exact: true })
        .click();
      break;
    case 'dropdown':
      await question.locator('.sd-dropdown').click();
      await question.getByRole('option', { name: String(value), exact: true }).click();
      break;
    case 'text':
      await question.locator('input').fill(String(value));
      break;
    default:
      throw new Error(`The test cannot answer a ${q.type} question`);
  }
}

/** Answers every question, page by page (`shown` looks at each first), and submits. */
async function takeQuiz(
  title: string,
  pick: (q: Question) => unknown,
  shown: (index: number, count: number) => Promise<void> = async () => {},
): Promise<void> {
  const pages = pagesOf(title);
  for (const [index, questions] of pages.entries()) {
    await page.locator(`[data-name="${questions[0]!.name}"]`).waitFor();
    await shown(index, pages.length);
    for (const q of questions) await answer(q, pick(q));
    await page.locator(index < pages.length - 1 ? '.sd-navigation__next-btn' : '.sd-navigation__complete-btn').click();
  }
  await page.getByTestId('quiz-result').waitFor();
}

async function openFromQuizzes(title: string): Promise<void> {
  await page.getByTestId('nav-quizzes').click();
  await page.getByTestId('quiz-row').filter({ hasText: title }).getByTestId('quiz-open').click();
  await page.getByTestId('quiz-survey').waitFor();
}

async function resultRows(): Promise<{ name: string; given: string; expected: string; correct: boolean }[]> {
  return page.getByTestId('result-row').evaluateAll((rows) =>
    rows.map((row) => ({
      name: row.getAttribute('data-name')!,
      given: row.querySelector('[data-testid="result-given"]')!.textContent!.trim(),
      expected: row.querySelector('[data-testid="result-expected"]')!.textContent!.trim(),
      correct: row.getAttribute('data-correct') === 'true',
    })),
  );
}

/** The question the keyboard's focus is in (a radio's own name is SurveyJS's, not the question's). */
const focusedQuestion = (): Promise<string | null> =>
  page.evaluate(() => document.activeElement?.closest('[data-name]')?.getAttribute('data-name') ?? null);

const localAttempts = async (): Promise<QuizAttempt[]> => {
  const result = await app.app.services.api.listQuizAttempts({});
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('quizzes offline, sent when the site is back', () => {
  it('syncs the demo workshop (with one quiz nobody can score), then loses the site', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('connect-demo').click();
    await page.waitForURL(new URL('/', app.shell.url).toString());

    // On the site, before the sync: a quiz on the drive belt guide of a type that cannot be scored.
    const db = demo.site().db;
    const now = Math.floor(Date.now() / 1000);
    const quizid = Number(
      db
        .prepare("INSERT INTO quizzes (title, description, passing_score, created, modified) VALUES (?, '', 50, ?, ?)")
        .run(BROKEN.title, now, now).lastInsertRowid,
    );
    const broken = { pages: [{ elements: [{ type: 'signaturepad', name: 'sign', correctAnswer: 'x' }] }] };
    const revision = Number(
      db
        .prepare('INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)')
        .run(quizid, JSON.stringify(broken), now).lastInsertRowid,
    );
    db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(revision, quizid);
    const { guideid } = db
      .prepare('SELECT g.guideid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE r.title = ?')
      .get(BROKEN.guide) as { guideid: number };
    db.prepare('INSERT INTO quiz_associations (guideid, quizid, created) VALUES (?, ?, ?)').run(guideid, quizid, now);

    await page.getByTestId('nav-sync').click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.getByTestId('sync-now').click();
    await answered;
    await page.getByTestId('sync-outcome').waitFor();
    expect(await page.getByTestId('sync-last-error').count()).toBe(0);

    const stored = await app.app.services.api.listQuizzes();
    if (!stored.ok) throw new Error(stored.error.message);
    expect(stored.value.map((q) => q.title).sort()).toEqual([COMPRESSOR.title, BANDSAW, BROKEN.title, FORKLIFT]);
    for (const quiz of stored.value) {
      const revision = await app.app.services.api.getQuiz(quiz.quizRevisionid);
      if (revision.ok) quizzes.set(quiz.title, revision.value);
    }
    expect([...quizzes.keys()].sort()).toEqual([COMPRESSOR.title, BANDSAW, FORKLIFT]);
    await demo.site().close();
  });

  it('passes the compressor quiz, opened from the guide, with the course stage’s pass mark', async () => {
    // The quiz list says the pass mark the quiz itself applies (the stage's 90%, not the quiz's own 80%).
    await page.getByTestId('nav-quizzes').click();
    const row = page.getByTestId('quiz-row').filter({ hasText: COMPRESSOR.title });
    expect(await row.getByTestId('quiz-row-passing').textContent()).toBe(
      'Pass mark 90%, set by the course stage “New Technician Onboarding › Compressed air”.',
    );
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').filter({ hasText: COMPRESSOR.guide }).first().click();
    await page
      .getByTestId('guide-quizzes')
      .getByTestId('guide-quiz-link')
      .filter({ hasText: COMPRESSOR.title })
      .click();
    await page.getByTestId('quiz-survey').waitFor();
    expect(await page.getByTestId('quiz-passing').textContent()).toBe(
      'Pass mark 90%, set by the course stage “New Technician Onboarding › Compressed air”.',
    );

    // A tall window: the page is said in words in the header too, beside SurveyJS's dots (a tick and a dot).
    const pageWords = page.getByTestId('quiz-page-count');
    expect(page.viewportSize()!.height).toBeGreaterThan(720);
    expect(await page.locator('.sd-progress-buttons').isVisible()).toBe(true);
    expect(await pageWords.isVisible()).toBe(true);
    expect(await pageWords.textContent()).toContain(`Page 1 of ${pagesOf(COMPRESSOR.title).length}`);
    // On a short screen (1024x600) each page is said in the quiz's header, in place of SurveyJS's row of
    // page dots (QuizView.vue): the first question then fits whole (screens.test.ts).
    await page.setViewportSize({ width: 1024, height: 600 });
    await takeQuiz(
      COMPRESSOR.title,
      (q) => q.correctAnswer,
      async (index, count) => {
        expect(await page.getByTestId('quiz-page-count').textContent()).toContain(`Page ${index + 1} of ${count}`);
        expect(await page.locator('.sd-progress-buttons').isVisible()).toBe(false);
      },
    );
    expect(await page.getByTestId('quiz-page-count').count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.getByTestId('quiz-result').getAttribute('data-passed')).toBe('true');
    expect(await page.getByTestId('quiz-score').textContent()).toBe('100%');
    expect(await page.getByTestId('quiz-verdict').textContent()).toBe('Passed');
    // The survey that had the focus is gone: the verdict has it (issue 28).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('quiz-verdict');
    expect(await page.getByTestId('quiz-result-passing').textContent()).toContain(
      'pass mark 90%, set by the course stage',
    );
    const rows = await resultRows();
    expect(rows.map((r) => r.name)).toEqual(
      pagesOf(COMPRESSOR.title)
        .flat()
        .map((q) => q.name),
    );
    expect(rows.every((r) => r.correct && r.given === r.expected)).toBe(true);
    expect(rows.find((r) => r.name === 'plug-relief-valve')).toMatchObject({ given: 'False', expected: 'False' });
    expect(rows.find((r) => r.name === 'energy-sources')?.given).toBe(
      'Air in the tank, The hot pump head, A tensioned drive belt',
    );
    expect(await page.getByTestId('quiz-result').getByTestId('attempt-sync').getAttribute('data-sync')).toBe('pending');
    await fullViewShot(page, 'quiz-passed.png');
  });

  it('fails the forklift quiz and shows what was right and wrong', async () => {
    await openFromQuizzes(FORKLIFT);
    // The stage sets no pass mark of its own, so the quiz's 70% applies and the view says so.
    expect(await page.getByTestId('quiz-passing').textContent()).toBe("Pass mark 70%, the quiz's own.");
    await takeQuiz(FORKLIFT, wrong);
    expect(await page.getByTestId('quiz-result').getAttribute('data-passed')).toBe('false');
    expect(await page.getByTestId('quiz-score').textContent()).toBe('0%');
    expect(await page.getByTestId('quiz-verdict').textContent()).toBe('Not passed');
    const rows = await resultRows();
    const questions = pagesOf(FORKLIFT).flat();
    expect(rows).toHaveLength(questions.length);
    expect(rows.every((r) => !r.correct && r.given !== r.expected)).toBe(true);
    expect(rows.find((r) => r.name === 'cracked-fork')).toMatchObject({
      given: 'Use the truck for light loads only',
      expected: 'Tag the truck out of service and report it',
    });
    expect(rows.find((r) => r.name === 'feel-for-leak')).toMatchObject({ given: 'Yes', expected: 'No' });
    expect(rows.find((r) => r.name === 'checklist-where')).toMatchObject({ given: 'no idea', expected: 'truck' });
    await fullViewShot(page, 'quiz-failed.png');
    // The verdict and each question's answer, read at the three sizes with Larger text, as at its first row.
    const problems = [];
    for (const at of ['quiz-result', 'result-row'] as const)
      problems.push(
        ...(await checkLargerText(
          page,
          `quiz-failed-${at}`,
          () =>
            page
              .getByTestId(at)
              .first()
              .evaluate((box) => box.scrollIntoView({ block: 'start' })),
          { width: 1280, height: 900 },
        )),
      );
    expect(formatProblems(problems)).toBe('');
  });

  it("keeps the answers' column names in view as a long result is scrolled, 1024x600 with Larger text", async () => {
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.getByTestId('text-size').click();
    try {
      await page
        .getByTestId('result-row')
        .last()
        .evaluate((row) => row.scrollIntoView({ block: 'end' }));
      const [bar, head, last] = await Promise.all([
        page.locator('header.top-bar').boundingBox(),
        page.locator('.quiz-result-table thead th').first().boundingBox(),
        page.getByTestId('result-row').last().boundingBox(),
      ]);
      // Below the top bar, above the last answer: not scrolled away with the first rows.
      expect(head!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1);
      expect(head!.y + head!.height).toBeLessThanOrEqual(last!.y + 1);
      // With its rule under it: a collapsed border stays with the table, and the row scrolled half under
      // the header read as part of it ("YOUR ANSWER only").
      const rule = await page
        .locator('.quiz-result-table thead th')
        .first()
        .evaluate((th) => getComputedStyle(th).boxShadow);
      expect(rule, 'the sticky header draws its own rule').toMatch(/inset/);
      await page.screenshot({ path: artifact('quiz-result-scrolled.png') });
    } finally {
      await page.getByTestId('text-size').click();
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('brings back the answers of a quiz half done after a reload, and drops them once submitted', async () => {
    await openFromQuizzes(BANDSAW);
    const questions = pagesOf(BANDSAW).flat();
    const byType = (type: string) => questions.find((q) => q.type === type)!;
    const [radio, dropdown, checkbox, text] = [
      byType('radiogroup'),
      byType('dropdown'),
      byType('checkbox'),
      byType('text'),
    ];
    await answer(radio, radio.correctAnswer);
    await answer(dropdown, dropdown.correctAnswer);
    await answer(checkbox, checkbox.correctAnswer);
    await page.locator(`[data-name="${text.name}"] input`).pressSequentially('ba', { delay: 20 });
    await page.locator('[data-testid="quiz-draft-state"][data-state="kept"]').waitFor();

    // The Quizzes list says the answers are kept (it said "0 attempts · Take the quiz"), and goes on with them.
    const url = page.url();
    await page.getByTestId('nav-quizzes').click();
    const card = page.getByTestId('quiz-row').filter({ hasText: BANDSAW });
    await expect
      .poll(() => card.getByTestId('quiz-row-kept').textContent())
      .toMatch(/^\s*Not handed in: your answers to 4 questions are kept on this computer\.\s*$/);
    expect((await card.getByTestId('quiz-open').textContent())?.trim()).toBe('Go on with it');
    await page.goto(url);
    await page.getByTestId('quiz-draft-restored').waitFor();
    expect((await page.getByTestId('quiz-draft-restored').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Restored your answers (4 questions) from your last time on this quiz. Carry on where you left off; nothing ' +
        'is sent until you submit. OK',
    );
    const question = (q: Question) => page.locator(`[data-name="${q.name}"]`);
    expect(
      await question(radio)
        .locator(`input[value="${String(radio.correctAnswer)}"]`)
        .isChecked(),
    ).toBe(true);
    for (const choice of checkbox.correctAnswer as string[])
      expect(await question(checkbox).locator(`input[value="${choice}"]`).isChecked()).toBe(true);
    expect(await question(dropdown).locator('.sd-dropdown').textContent()).toContain(String(dropdown.correctAnswer));
    expect(await question(text).locator('input').inputValue()).toBe('ba');
    await fullViewShot(page, 'quiz-restored.png');

    await answer(text, text.correctAnswer);
    await answer(byType('boolean'), byType('boolean').correctAnswer);
    await page.locator('.sd-navigation__complete-btn').click();
    await page.getByTestId('quiz-result').waitFor();
    expect(await page.getByTestId('quiz-score').textContent()).toBe('100%');
    // The draft went with the submitted attempt: a reload starts the quiz afresh.
    await page.reload();
    await page.getByTestId('quiz-survey').waitFor();
    await page.locator(`[data-name="${radio.name}"]`).waitFor();
    expect(await page.getByTestId('quiz-draft-restored').count()).toBe(0);
    expect(await page.getByTestId('quiz-draft-state').getAttribute('data-state')).toBe('none');
    expect(await page.locator(`[data-name="${radio.name}"] input:checked`).count()).toBe(0);
  });

  it('shows the App API’s message for the quiz nobody can score, and the rest keeps working', async () => {
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').filter({ hasText: BROKEN.guide }).first().click();
    await page.getByTestId('guide-quizzes').getByTestId('guide-quiz-link').filter({ hasText: BROKEN.title }).click();
    await page.getByTestId('quiz-error').waitFor();
    expect(await page.getByTestId('quiz-error').getAttribute('data-code')).toBe('invalid_input');
    expect(await page.getByTestId('quiz-error-message').textContent()).toBe(
      '"Broken quiz" cannot be taken: Question "sign" is of type "signaturepad", which Fieldguide cannot score.',
    );
    await page.screenshot({ path: artifact('quiz-malformed.png') });
    await page.getByTestId('nav-quizzes').click();
    await page.getByTestId('quiz-row').nth(3).waitFor();
    expect(await page.getByTestId('quiz-row').count()).toBe(4);
  });

  it('lists the attempts as waiting to be sent', async () => {
    await page.getByTestId('nav-quizzes').click();
    await page.getByTestId('attempt-row').nth(2).waitFor();
    expect(await page.getByTestId('attempt-row').count()).toBe(3);
    expect(await page.locator('[data-testid="attempt-row"][data-sync="pending"]').count()).toBe(3);
    const forklift = page.getByTestId('quiz-row').filter({ hasText: FORKLIFT });
    expect(await forklift.getByTestId('attempt-row').getAttribute('data-passed')).toBe('false');
  });

  it('sends the attempts once the site is back, and the site has their scores and pass or fail', async () => {
    const site = await demo.restart();
    await page.getByTestId('nav-sync').click();
    await sendNowUnlessGone(page);
    await page
      .getByTestId('outbox-summary')
      .filter({ hasText: 'Everything you did has reached the site.' })
      .waitFor({ timeout: 60_000 });

    await page.getByTestId('nav-quizzes').click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="attempt-row"][data-sync="sent"]').length === 3,
      null,
      { timeout: 15_000 },
    );
    await fullViewShot(page, 'quizzes-sent.png');

    const attempts = await localAttempts();
    expect(attempts.map((a) => [a.title, a.score, a.passed, a.sync]).sort()).toEqual(
      [
        [COMPRESSOR.title, 100, true, 'sent'],
        [BANDSAW, 100, true, 'sent'],
        [FORKLIFT, 0, false, 'sent'],
      ].sort(),
    );
    const recorded = site.db
      .prepare(
        `SELECT client_uuid, quizid, quizRevisionid, score, passed, course_stageid ` +
          `FROM quiz_attempts WHERE client_uuid IN (${attempts.map(() => '?').join(', ')})`,
      )
      .all(...attempts.map((a) => a.id)) as {
      client_uuid: string;
      quizid: number;
      quizRevisionid: number;
      score: number;
      passed: number;
      course_stageid: number | null;
    }[];
    expect(recorded).toHaveLength(3);
    for (const attempt of attempts) {
      expect(recorded.find((r) => r.client_uuid === attempt.id)).toEqual({
        client_uuid: attempt.id,
        quizid: attempt.quizid,
        quizRevisionid: attempt.quizRevisionid,
        score: attempt.score,
        passed: attempt.passed ? 1 : 0,
        course_stageid: attempt.courseStageid,
      });
    }
  });

  it("an attempt's late answer does not undo the news that it reached the site", async () => {
    // Online, the outbox sends the attempt at once; its "sent" can reach the window before the submit's
    // own answer ("waiting"), which the web shell carries on another connection. Held back half a second here.
    await withAnswersHeld(page, 'submitQuizAttempt', 500, async () => {
      await openFromQuizzes(FORKLIFT);
      await takeQuiz(FORKLIFT, wrong);
    });
    await page.waitForTimeout(300);
    expect(await page.getByTestId('quiz-result').getByTestId('attempt-sync').getAttribute('data-sync')).toBe('sent');
  });

  it('by keyboard, gloved, at three sizes: the focus follows the page, a stray Submit records nothing', async () => {
    const [first, second] = pagesOf(COMPRESSOR.title) as [Question[], Question[]];
    const before = (await localAttempts()).length;
    const problems = [];
    const seen: unknown[] = [];
    for (const large of [false, true]) {
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await openFromQuizzes(COMPRESSOR.title);
        if (large && (await page.getByTestId('text-size').getAttribute('aria-pressed')) !== 'true')
          await page.getByTestId('text-size').click();
        const screen = `quiz-keys${large ? '-larger' : ''}`;
        // The keyboard's ring on a choice is seen (it was on the hidden radio: a pale glow was all that showed).
        await page.locator(`[data-name="${first[0]!.name}"] input`).first().focus();
        await page.keyboard.press('ArrowDown');
        const choice = await focusedOn(page);
        await page.locator('.sd-navigation__next-btn').focus();
        await page.keyboard.press('Enter');
        // Page 2: the focus on its first answer, the quiz's title and page in view (before: on the page itself,
        // the header scrolled away).
        await expect.poll(focusedQuestion).toBe(second[0]!.name);
        const turned = await focusedOn(page);
        const header = await page.locator('.quiz-header h1').boundingBox();
        const bar = await page.locator('header.top-bar').boundingBox();
        const headerInView = header!.y >= bar!.y + bar!.height - 1;
        await page.screenshot({ path: artifact(`${screen}-page-2-${viewport.name}.png`) });
        // Every control on the page 44 px at least (the switch's words and the dropdown's buttons were 40).
        problems.push(...(await checkScreen(page, screen, viewport)));
        // The typed answer's box shows the app's ring too (SurveyJS's own was a 1 px line).
        await page.locator('[data-name="valve-stamp"] input').focus();
        const typed = await focusedOn(page);
        await page.screenshot({ path: artifact(`${screen}-typed-${viewport.name}.png`) });
        seen.push([
          screen,
          viewport.name,
          choice.ringed,
          turned.ringed,
          turned.inView,
          headerInView,
          typed.ringed && typed.ringContrast! >= 3,
          (await page.getByTestId('quiz-page-count').textContent())?.trim(),
        ]);
        // Previous by keyboard: the focus on page 1's first answer (its draft brings page 1 back next time).
        await page.locator('.sd-navigation__prev-btn').focus();
        await page.keyboard.press('Enter');
        await expect.poll(focusedQuestion).toBe(first[0]!.name);
        if (large) await page.getByTestId('text-size').click();
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(seen).toEqual(
      [false, true].flatMap((large) =>
        VIEWPORTS.map((v) => [
          `quiz-keys${large ? '-larger' : ''}`,
          v.name,
          true,
          true,
          true,
          true,
          true,
          'Page 2 of 2',
        ]),
      ),
    );
    expect(formatProblems(problems)).toBe('');

    await page.locator('.sd-navigation__next-btn').click();
    // Submit with questions left empty: nothing recorded yet, the technician is asked (before: an attempt
    // recorded at once, 0 % with none answered).
    await page.locator('.sd-navigation__complete-btn').click();
    const asked = page.getByTestId('quiz-unanswered');
    await asked.waitFor();
    const empty = first.length - 1 + second.length;
    expect((await asked.locator('p').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      `${empty} questions not answered: each counts as wrong. Nothing is recorded until you submit.`,
    );
    expect(await page.getByTestId('quiz-result').count()).toBe(0);
    expect((await localAttempts()).length).toBe(before);
    // The keyboard is on "Answer them"; the question and its two answers read whole at the three sizes with
    // Larger text.
    await expect.poll(async () => (await focusedOn(page)).testid).toBe('quiz-answer-them');
    await expectLargerTextFits(page, 'quiz-unanswered', asked, { width: 1280, height: 900 });
    // "Answer them" takes the keyboard to the first one left empty, back on page 1.
    await page.getByTestId('quiz-answer-them').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedQuestion).toBe(first[1]!.name);
    await answer(first[1]!, first[1]!.correctAnswer);
    await page.locator('.sd-navigation__next-btn').click();
    await page.locator('.sd-navigation__complete-btn').click();
    await page.getByTestId('quiz-submit-anyway').click();
    await page.getByTestId('quiz-result').waitFor();
    expect((await localAttempts()).length).toBe(before + 1);
    const rows = await resultRows();
    expect(rows.filter((r) => r.given === 'No answer').map((r) => r.name)).toEqual(second.map((q) => q.name));

    // Take it again, by keyboard: the focus on the new attempt's first answer (before: on nothing).
    await page.getByTestId('quiz-again').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedQuestion).toBe(first[0]!.name);

    // A quiz not kept here (a link to one the site removed): no revision number, and advice that fits
    // (before: "Quiz revision 99999 is not stored…", and to ask the quiz's author to correct it).
    await page.goto(new URL('/quizzes/99999', app.shell.url).toString());
    await page.getByTestId('quiz-error').waitFor();
    expect([
      await page.getByTestId('quiz-error').getAttribute('data-code'),
      await page.getByTestId('quiz-error-message').textContent(),
      (await page.getByTestId('quiz-error-advice').textContent())?.replace(/\s+/g, ' ').trim(),
    ]).toEqual([
      'not_found',
      'The site may have removed it, or it goes with guides not kept here.',
      'Choose it from the list of quizzes, or sync with the site online to bring the quizzes of the guides kept on ' +
        'this computer.',
    ]);
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
