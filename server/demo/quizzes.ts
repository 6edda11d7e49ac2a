import type { SurveyJson } from '../quizzes/repo.ts';

export interface DemoQuiz {
  key: string;
  title: string;
  description: string;
  passing_score: number;
  /** Guides (by demo key) the quiz is associated with. */
  guides: string[];
  survey: SurveyJson;
}

/** Three quizzes in SurveyJS JSON; every scored question carries `correctAnswer`. */
export const DEMO_QUIZZES: DemoQuiz[] = [
  {
    key: 'compressor-safety',
    title: 'Air Compressor Safety',
    description: 'Stored energy, relief valves and the daily drain.',
    passing_score: 80,
    guides: ['compressor-belt', 'compressor-drain', 'relief-valve'],
    survey: {
      title: 'Air Compressor Safety',
      showProgressBar: 'top',
      pages: [
        {
          name: 'energy',
          elements: [
            {
              type: 'radiogroup',
              name: 'bleed-before-work',
              title: 'Before working on the drive of a compressor, the tank pressure must be:',
              choices: [
                'Below 50 psi',
                'Below cut-in pressure',
                '0 psi, confirmed',
                'Any pressure if the power is locked out',
              ],
              correctAnswer: '0 psi, confirmed',
            },
            {
              type: 'checkbox',
              name: 'energy-sources',
              title: 'Which of these are stored energy in an air compressor? (Select all that apply)',
              choices: ['Air in the tank', 'The hot pump head', 'The paint colour', 'A tensioned drive belt'],
              correctAnswer: ['Air in the tank', 'The hot pump head', 'A tensioned drive belt'],
            },
          ],
        },
        {
          name: 'valves',
          elements: [
            {
              type: 'boolean',
              name: 'plug-relief-valve',
              title: 'A leaking safety relief valve may be replaced with a pipe plug until a new valve arrives.',
              labelTrue: 'True',
              labelFalse: 'False',
              correctAnswer: false,
            },
            {
              type: 'dropdown',
              name: 'drain-interval',
              title: 'How often should the receiver tank be drained?',
              choices: ['Every shift', 'Once a week', 'Once a month', 'When the tank gauge reads low'],
              correctAnswer: 'Every shift',
            },
            {
              type: 'text',
              name: 'valve-stamp',
              title: 'What certification stamp must a replacement safety valve carry? (one word)',
              correctAnswer: 'ASME',
            },
          ],
        },
      ],
    },
  },
  {
    key: 'forklift-pre-shift',
    title: 'Forklift Pre-Shift Check',
    description: 'What takes a truck out of service, and what does not.',
    passing_score: 70,
    guides: ['forklift-inspection', 'forklift-hose', 'forklift-lp-tank'],
    survey: {
      title: 'Forklift Pre-Shift Check',
      pages: [
        {
          name: 'checks',
          elements: [
            {
              type: 'radiogroup',
              name: 'cracked-fork',
              title: 'You find a crack at the heel of a fork. What do you do?',
              choices: [
                'Use the truck for light loads only',
                'Tag the truck out of service and report it',
                'Swap the two forks',
                'Finish the shift, then report it',
              ],
              correctAnswer: 'Tag the truck out of service and report it',
            },
            {
              type: 'checkbox',
              name: 'out-of-service',
              title: 'Which findings take a truck out of service? (Select all that apply)',
              choices: [
                'Hydraulic oil puddle',
                'Seat belt does not latch',
                'Scratched paint on the mast',
                'Brakes do not hold on the ramp',
              ],
              correctAnswer: ['Hydraulic oil puddle', 'Seat belt does not latch', 'Brakes do not hold on the ramp'],
            },
            {
              type: 'boolean',
              name: 'feel-for-leak',
              title: 'Running your hand along a hydraulic hose is a safe way to find a pinhole leak.',
              correctAnswer: false,
            },
            {
              type: 'dropdown',
              name: 'lp-pin',
              title: 'The locating pin on the LP tank bracket makes sure that:',
              choices: [
                'The tank cannot be stolen',
                'The relief valve is at the top',
                'The gauge faces the operator',
                'The tank is full',
              ],
              correctAnswer: 'The relief valve is at the top',
            },
            {
              type: 'text',
              name: 'checklist-where',
              // The answer scored is one word: the title asked for "on the ..." and marked "on the truck" wrong.
              title: 'On what is the signed checklist left? (one word)',
              correctAnswer: 'truck',
            },
          ],
        },
      ],
    },
  },
  {
    key: 'bandsaw-blade',
    title: 'Band Saw Blade Change',
    description: 'Tension, tracking and tooth direction.',
    passing_score: 75,
    guides: ['bandsaw-blade', 'bandsaw-guides'],
    survey: {
      title: 'Band Saw Blade Change',
      pages: [
        {
          name: 'blade',
          elements: [
            {
              type: 'radiogroup',
              name: 'release-tension',
              title: 'When must blade tension be released?',
              choices: [
                'Before touching the blade',
                'After removing the blade',
                'Only for blades over 1 in wide',
                'Never',
              ],
              correctAnswer: 'Before touching the blade',
            },
            {
              type: 'dropdown',
              name: 'tpi-tube',
              title: 'Which tooth pitch suits thin-wall tube?',
              choices: ['4/6 TPI', '6/10 TPI', '10/14 TPI'],
              correctAnswer: '10/14 TPI',
            },
            {
              type: 'checkbox',
              name: 'break-in',
              title: 'Breaking in a new blade means: (Select all that apply)',
              choices: [
                'Half feed pressure for the first cuts',
                'Running it dry at top speed',
                'Two or three gentle cuts before normal work',
              ],
              correctAnswer: ['Half feed pressure for the first cuts', 'Two or three gentle cuts before normal work'],
            },
            {
              type: 'boolean',
              name: 'covers-open',
              title: 'It is acceptable to jog the saw with a wheel cover open to watch the tracking.',
              correctAnswer: false,
            },
            {
              type: 'text',
              name: 'blade-clearance',
              title: 'Which part of the blade should run just clear of the wheel flange? (one word)',
              correctAnswer: 'back',
            },
          ],
        },
      ],
    },
  },
];

/** A course whose first stage sets its own passing score (stricter than the quiz's), the second does not. */
export const DEMO_COURSE = {
  title: 'New Technician Onboarding',
  description: 'Safety basics every technician completes in their first month.',
  stages: [
    { title: 'Compressed air', quizzes: ['compressor-safety'], passing_score: 90 },
    { title: 'Material handling', quizzes: ['forklift-pre-shift'], passing_score: null },
    { title: 'Cutting', quizzes: ['bandsaw-blade'], passing_score: 60 },
  ],
} as const;
