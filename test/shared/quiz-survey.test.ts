import { describe, expect, it } from 'vitest';
import { refusedSurvey, surveyAsData, surveyRefusal } from '../../electron/shared/quiz-survey.ts';

// A site's survey as data (issue 26): what would navigate, write cookies, fetch or post is left out at any
// depth; answers are kept as they are; the survey given is not changed.
describe('a survey as data', () => {
  it('leaves out what acts, at any depth, and keeps answers and everything else', () => {
    // A multiple-text item may be called `logo`: its answers keep the name.
    const answers = { correctAnswer: { logo: 'ACME' }, defaultValue: { logo: 'x' } };
    const multiple = { type: 'multipletext', name: 'm', items: [{ name: 'logo' }], ...answers };
    const survey = {
      title: 'Safety',
      navigateToUrl: 'https://evil.example/',
      cookieName: 'fieldguide_launch',
      surveyPostId: 'x',
      logo: 'https://evil.example/logo.png',
      pages: [
        {
          backgroundImage: 'https://evil.example/bg.png',
          elements: [
            { type: 'dropdown', name: 'bay', choicesByUrl: { url: 'https://evil.example/choices' }, choices: ['A'] },
            {
              type: 'panel',
              name: 'p',
              elements: [
                { type: 'imagepicker', name: 'pick', choices: [{ value: 'a', imageLink: 'https://evil.example/a' }] },
              ],
            },
            multiple,
          ],
        },
      ],
    };
    const before = JSON.stringify(survey);
    expect(surveyAsData(survey)).toEqual({
      title: 'Safety',
      pages: [
        {
          elements: [
            { type: 'dropdown', name: 'bay', choices: ['A'] },
            { type: 'panel', name: 'p', elements: [{ type: 'imagepicker', name: 'pick', choices: [{ value: 'a' }] }] },
            multiple,
          ],
        },
      ],
    });
    expect(JSON.stringify(survey)).toBe(before);
    expect(surveyAsData('not a survey')).toBe('not a survey');
    expect(surveyAsData(null)).toBeNull();
  });

  it('a refused survey keeps its reason', () => {
    const refused = surveyAsData(refusedSurvey('nested too deep'));
    expect(surveyRefusal(refused)).toBe('nested too deep');
    expect(surveyRefusal({ pages: [] })).toBeNull();
  });
});
