import type { DemoGuide } from './types.ts';

const SAW = 25;
const LATHE = 95;

export const MACHINE_TOOL_GUIDES: DemoGuide[] = [
  {
    key: 'bandsaw-blade',
    title: 'Replace the Blade on a Horizontal Band Saw',
    category: 'Band Saws',
    subject: 'Blade',
    type: 'replacement',
    difficulty: 'Moderate',
    minutes: [30, 45],
    summary: 'Fit a new bi-metal blade to a 7 x 12 in horizontal metal-cutting band saw, tension it and track it.',
    intro:
      'A dull blade wanders, leaves a rough cut and can snap. ' +
      'Replace the blade when it no longer cuts straight with normal feed, ' +
      'when teeth are missing, or when you change to stock that needs a different tooth pitch.\n\n' +
      '* 4/6 TPI for solid bar over 2 in\n* 6/10 TPI for general work\n* 10/14 TPI for tube and thin wall',
    conclusion:
      'Break in the new blade: run the first two or three cuts at half the normal feed pressure. ' +
      'A broken-in blade lasts far longer than one pushed hard from the start.',
    flags: ['DANGER'],
    parts: [['Bi-metal band saw blade, 93 in x 3/4 in', 1, 'Choose the tooth pitch for the stock']],
    tools: [
      ['Cut-resistant gloves', 1],
      ['Hex key set', 1],
      ['Wire brush', 1],
      ['Blade tension gauge', 1, "Or the saw's built-in tension indicator"],
    ],
    prereqs: ['lockout'],
    tags: ['band saw', 'blade', 'cutting'],
    hue: SAW,
    steps: [
      {
        title: 'Lock out the saw',
        pictures: ['Saw disconnect'],
        lines: [
          ['black', 'Lower the saw head to its horizontal rest and switch the saw off.'],
          ['black', 'Unplug it, or lock out its disconnect if it is hard-wired.'],
        ],
      },
      {
        title: 'Open the wheel covers',
        pictures: ['Wheel covers open'],
        lines: [
          ['black', 'Remove the two knobs and swing open the drive-wheel and idler-wheel covers.'],
          ['black', 'Remove the blade guard over the cutting area.'],
        ],
      },
      {
        title: 'Release the blade tension',
        pictures: ['Tension handle'],
        lines: [
          ['black', 'Turn the tension handle anticlockwise until the blade hangs slack on the wheels.'],
          [
            'red',
            'A tensioned blade that breaks whips out with great force. ' +
              'Always release tension before touching the blade.',
          ],
        ],
      },
      {
        title: 'Remove the old blade',
        pictures: ['Blade out of guides', 'Blade off wheels'],
        lines: [
          ['black', 'Put on cut-resistant gloves.'],
          ['black', 'Lift the blade out of the two guide-bearing assemblies.'],
          ['black', 'Slip it off the wheels, starting with the idler wheel.'],
          ['icon_caution', 'Coil the old blade into three loops and tape it before putting it in the scrap bin.', 1],
        ],
      },
      {
        title: 'Clean the wheels and guides',
        pictures: ['Chips on wheel'],
        lines: [
          ['black', 'Brush chips off the wheel rims and out of the guide bearings.'],
          ['black', 'Chips packed on a rim push the blade off track.'],
        ],
      },
      {
        title: 'Check the direction of the new blade',
        pictures: ['Tooth direction'],
        lines: [
          [
            'black',
            'Hold the new blade so the teeth at the cutting area point toward the motor (in the direction of travel).',
          ],
          ['icon_note', 'If the teeth point the wrong way, turn the blade loop inside out.', 1],
        ],
        form: [
          {
            type: 'Select',
            label: 'Tooth pitch of the new blade',
            options: ['4/6 TPI', '6/10 TPI', '8/12 TPI', '10/14 TPI'],
          },
        ],
      },
      {
        title: 'Fit the new blade',
        pictures: ['Blade on wheels', 'Blade in guides'],
        lines: [
          ['black', 'Place the blade in both guide-bearing assemblies first.'],
          ['black', 'Then loop it over the drive wheel and the idler wheel.'],
          ['black', 'Keep the back of the blade against the wheel flanges.', 1],
        ],
      },
      {
        title: 'Tension the blade',
        pictures: ['Tension gauge'],
        lines: [
          ['black', 'Turn the tension handle clockwise until the indicator reaches the mark for a 3/4 in blade.'],
          ['green', 'With a gauge: 20,000 to 25,000 psi for bi-metal blades.', 1],
        ],
        form: [{ type: 'Image', label: 'Photo of the tension indicator' }],
      },
      {
        title: 'Check the tracking',
        pictures: ['Tracking adjustment'],
        lines: [
          ['black', 'Close the covers, reconnect power and jog the saw for a few seconds.'],
          ['black', 'Open the idler cover again with the saw locked out and look at the blade on the wheel.'],
          ['black', 'The back of the blade should run just clear of the flange.', 1],
          ['black', 'If not, turn the tracking screw a quarter turn and check again.', 1],
        ],
      },
      {
        title: 'Refit the guard and test cut',
        pictures: ['Test cut'],
        lines: [
          ['black', 'Refit the blade guard and close both covers.'],
          ['red', 'Never run the saw with a wheel cover open.'],
          ['black', 'Make a test cut in scrap at half feed pressure and check it is square.'],
        ],
      },
    ],
  },
  {
    key: 'bandsaw-guides',
    title: 'Adjust the Blade Guides on a Horizontal Band Saw',
    category: 'Band Saws',
    subject: 'Blade Guides',
    type: 'maintenance',
    difficulty: 'Moderate',
    minutes: [30, 40],
    summary: 'Set the guide bearings so the blade runs square and close to the work, for straight cuts.',
    intro:
      'Worn or badly set guide bearings let the blade twist, ' +
      'and a twisting blade cuts off square no matter how sharp it is. ' +
      'Check the guides whenever a cut wanders or after fitting a new blade.',
    conclusion:
      'Test by cutting a 2 in square bar and checking the cut face with a square. ' +
      'Readjust if it is more than 0.005 in out over the width.',
    flags: [],
    parts: [],
    tools: [
      ['Feeler gauges', 1],
      ['Machinist square', 1],
      ['Hex key set', 1],
      ['Open-end wrench, 1/2 in', 1],
    ],
    prereqs: ['bandsaw-blade'],
    tags: ['band saw', 'adjustment'],
    hue: SAW + 15,
    steps: [
      {
        title: 'Lock out the saw',
        pictures: ['Saw locked out'],
        lines: [['black', 'Lower the head, switch off and unplug or lock out the saw.']],
      },
      {
        title: 'Inspect the guide bearings',
        pictures: ['Guide bearings'],
        lines: [
          ['black', 'Spin each guide bearing with your finger.'],
          ['yellow', 'A bearing that is rough, noisy or has a flat spot must be replaced before adjusting.', 1],
        ],
      },
      {
        title: 'Set the guide arms close to the work',
        pictures: ['Guide arm positions'],
        lines: [
          ['black', 'Loosen the guide arm knobs and slide the arms as close to the vise jaws as the work allows.'],
          ['icon_note', 'The less unsupported blade between the guides, the straighter the cut.', 1],
        ],
      },
      {
        title: 'Set the side bearings',
        pictures: ['Eccentric bushing', 'Feeler gauge'],
        lines: [
          ['black', 'Loosen the nut of the eccentric bearing on each guide.'],
          [
            'black',
            'Turn the eccentric until the bearing touches the blade with a 0.001 in feeler gauge between them.',
          ],
          ['black', 'Tighten the nut and remove the feeler gauge.'],
        ],
      },
      {
        title: 'Set the back-up bearings',
        pictures: ['Back-up bearing'],
        lines: [
          ['black', 'Adjust the back-up bearing so it sits 1/64 in behind the back of the blade when the saw is idle.'],
          ['black', 'When cutting, the blade should push back just enough to spin it.', 1],
        ],
      },
      {
        title: 'Square the blade to the table',
        pictures: ['Square against blade'],
        lines: [
          ['black', 'Stand a machinist square on the bed against the side of the blade.'],
          ['black', 'Loosen the guide block bolts and rotate the block until the blade is flush with the square.'],
          ['black', 'Tighten the bolts and check again.'],
        ],
      },
      {
        title: 'Test cut',
        pictures: ['Checking the cut face'],
        lines: [
          ['black', 'Reconnect the saw and cut a piece of 2 in square bar.'],
          ['green', 'Check the cut face with the square in both directions.'],
        ],
      },
    ],
  },
  {
    key: 'lathe-gib',
    title: 'Adjust the Cross-Slide Gib on a Metal Lathe',
    category: 'Lathes',
    subject: 'Cross-Slide',
    type: 'repair',
    difficulty: 'Difficult',
    minutes: [40, 60],
    summary: "Take up the play in a 12 in engine lathe's cross-slide with the tapered gib, without making it bind.",
    intro:
      'Play in the cross-slide shows up as chatter, a poor finish when facing and parting tools that dig in. ' +
      'The tapered gib between the slide and its dovetail takes that play up. ' +
      'Too loose rattles, too tight wears the ways.',
    conclusion:
      "Oil the ways and the cross-slide screw, and note the date of the adjustment on the lathe's maintenance card.",
    flags: [],
    parts: [['Way oil, ISO 68', 1]],
    tools: [
      ['Dial indicator with magnetic base', 1],
      ['Flat screwdriver, wide blade', 1],
      ['Lint-free rags', 2],
    ],
    prereqs: ['lockout'],
    tags: ['lathe', 'adjustment', 'ways'],
    hue: LATHE,
    steps: [
      {
        title: 'Lock out the lathe',
        pictures: ['Lathe disconnect'],
        lines: [['black', 'Switch the lathe off at the main switch and lock out the disconnect.']],
      },
      {
        title: 'Clean the cross-slide ways',
        pictures: ['Ways with chips'],
        lines: [
          ['black', 'Run the cross-slide fully back and wipe the exposed ways clean.'],
          ['black', 'Run it fully forward and wipe the other end.'],
          ['icon_caution', 'Never use compressed air on the ways: it drives chips under the wipers.', 1],
        ],
      },
      {
        title: 'Measure the play',
        pictures: ['Indicator on cross-slide'],
        lines: [
          ['black', 'Set the dial indicator on the carriage with its tip against the side of the cross-slide.'],
          ['black', 'Push and pull the slide sideways by hand and read the movement.'],
          ['green', 'Less than 0.001 in needs no adjustment.', 1],
        ],
      },
      {
        title: 'Loosen the rear gib screw',
        pictures: ['Rear gib screw'],
        lines: [['black', 'Back the rear gib screw out one full turn.']],
      },
      {
        title: 'Push the gib in',
        pictures: ['Front gib screw'],
        lines: [
          ['black', 'Turn the front gib screw in a quarter turn at a time.'],
          ['black', 'After each quarter turn, wind the cross-slide through its full travel.'],
          ['yellow', 'Stop when the handwheel starts to feel stiff anywhere along the travel.', 1],
        ],
      },
      {
        title: 'Lock the gib',
        pictures: ['Both screws'],
        lines: [
          ['black', 'Back the front screw off an eighth of a turn.'],
          ['black', 'Snug the rear screw against the gib to lock it in place.'],
        ],
      },
      {
        title: 'Measure again',
        pictures: ['Indicator reading'],
        lines: [
          ['black', 'Repeat the play measurement from step 3.'],
          ['green', 'Aim for 0.0005 to 0.001 in with a smooth handwheel over the whole travel.'],
        ],
      },
      {
        title: 'Oil the ways',
        pictures: ['Oiling the ways'],
        lines: [
          ['black', 'Oil the ways and the oil points on the cross-slide.'],
          ['black', 'Wind the slide back and forth to spread the oil.'],
        ],
      },
    ],
  },
  {
    key: 'lathe-chuck',
    title: 'Mount a Three-Jaw Chuck on a D1-4 Spindle',
    category: 'Lathes',
    subject: 'Chuck',
    type: 'installation',
    difficulty: 'Moderate',
    minutes: [15, 25],
    summary: 'Safely remove and mount a heavy lathe chuck on a camlock spindle nose.',
    intro:
      'A 8 in three-jaw chuck weighs about 40 lb. ' +
      'Dropped on the ways, it dents them; dropped on a foot, it breaks it. ' +
      'Always use a chuck board across the ways and make sure every cam is locked before starting the spindle.',
    conclusion:
      'Check the runout of a ground test bar in the chuck. ' +
      'More than 0.003 in at the jaws means dirt on the mating faces: remove, clean and remount.',
    flags: ['DANGER'],
    parts: [],
    tools: [
      ['Chuck key', 1],
      ['Camlock key', 1],
      ['Chuck board (hardwood, cut to fit the ways)', 1],
      ['Dial indicator', 1],
    ],
    prereqs: ['lockout'],
    tags: ['lathe', 'chuck', 'setup'],
    hue: LATHE + 15,
    steps: [
      {
        title: 'Lock out and set the chuck board',
        pictures: ['Chuck board on ways'],
        lines: [
          ['black', 'Lock out the lathe.'],
          ['black', 'Lay the chuck board across the ways under the spindle nose.'],
        ],
      },
      {
        title: 'Release the cams',
        pictures: ['Camlock marks'],
        lines: [
          [
            'black',
            'Turn each of the three cams anticlockwise until its mark lines up with the mark on the spindle nose.',
          ],
          ['red', 'Keep one hand under the chuck as you release the last cam.'],
        ],
      },
      {
        title: 'Remove the old chuck',
        pictures: ['Chuck on board'],
        lines: [
          ['black', 'Rock the chuck gently to free it from the taper and lower it onto the chuck board.'],
          ['black', 'Slide it off the board onto the bench.'],
        ],
      },
      {
        title: 'Clean the mating surfaces',
        pictures: ['Spindle nose', 'Chuck back'],
        lines: [
          ['black', "Wipe the spindle taper, the spindle face and the chuck's back plate with a clean rag."],
          ['icon_caution', 'One chip on the taper can cost 0.005 in of runout.', 1],
        ],
      },
      {
        title: 'Mount the new chuck',
        pictures: ['Chuck on spindle'],
        lines: [
          [
            'black',
            'Lift the chuck onto the board and slide it onto the spindle, aligning the cam studs with their holes.',
          ],
          ['black', 'Push it home until the faces meet.'],
        ],
      },
      {
        title: 'Lock the cams',
        pictures: ['Cam locked'],
        lines: [
          ['black', 'Turn each cam clockwise until it tightens.'],
          ['green', 'Each cam mark must stop between the two V marks on the spindle nose.', 1],
          ['red', 'A cam that turns past the V marks means the stud needs adjusting. Do not run the lathe.', 1],
          ['black', 'Remove the chuck key and the camlock key before switching on.'],
        ],
      },
    ],
  },
];
