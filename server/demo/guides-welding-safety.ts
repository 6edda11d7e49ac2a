import type { DemoGuide } from './types.ts';

const SAFETY = 0;
const WELD = 275;

export const SAFETY_GUIDES: DemoGuide[] = [
  {
    key: 'lockout',
    title: 'Lockout/Tagout Before Servicing Shop Equipment',
    category: 'Shop Safety',
    subject: 'Lockout/Tagout',
    type: 'technique',
    difficulty: 'Very easy',
    minutes: [5, 10],
    summary: 'Isolate every energy source of a machine and prove it is dead before you put your hands in it.',
    intro:
      'Every year, people are hurt by machines that someone else switched on while they were working inside them. ' +
      'Lockout/tagout makes that impossible: **your** lock on the disconnect, **your** key in your pocket.\n\n' +
      'Electricity is not the only energy: compressed air, hydraulic pressure, springs, gravity and heat all count.',
    conclusion:
      'When the work is done: tools out, guards on, people clear, then remove your own lock. ' +
      "Never remove someone else's lock.",
    flags: ['GUIDE_PREREQ_ONLY', 'DANGER'],
    parts: [],
    tools: [
      ['Personal safety lock with one key', 1],
      ['Danger tag', 1],
      ['Multi-lock hasp (group lockout)', 1],
      ['Voltage tester', 1],
    ],
    tags: ['safety', 'lockout'],
    hue: SAFETY,
    steps: [
      {
        title: 'Tell the people around you',
        pictures: ['Operator briefing'],
        lines: [
          ['black', "Tell the machine's operator and anyone working nearby that you are locking it out, and why."],
        ],
      },
      {
        title: 'Shut the machine down normally',
        pictures: ['Stop button'],
        lines: [
          ['black', 'Stop the machine with its normal controls so nothing is left half way through a cycle.'],
          ['black', 'Wait for every moving part to come to a complete stop.', 1],
        ],
      },
      {
        title: 'Isolate every energy source',
        pictures: ['Disconnect open', 'Air valve closed'],
        lines: [
          ['black', 'Open the electrical disconnect.'],
          ['black', 'Close the air, hydraulic or gas supply valves.'],
          [
            'icon_caution',
            'A machine can have several disconnects. Check the label on the machine for the full list.',
            1,
          ],
        ],
      },
      {
        title: 'Apply your lock and tag',
        pictures: ['Lock and tag on disconnect'],
        lines: [
          ['black', 'Put your own lock on each isolation point, with a hasp if others also need to lock out.'],
          ['black', 'Fill in the tag with your name, the date and the reason.'],
          ['red', 'One person, one lock, one key. Never lend your key.'],
        ],
      },
      {
        title: 'Release stored energy',
        pictures: ['Bleeding pressure'],
        lines: [
          ['black', 'Bleed air and hydraulic pressure, block raised parts, and let hot parts cool.'],
          ['black', "Discharge capacitors as the machine's manual describes.", 1],
        ],
      },
      {
        title: 'Try to start it',
        pictures: ['Pressing start'],
        lines: [
          ['black', 'Press the start button. Nothing should happen.'],
          [
            'black',
            'Test for voltage at the machine side of the disconnect with a tester you proved on a live source.',
          ],
          ['green', 'Only now is the machine safe to work on.'],
          ['black', 'Return the start control to off.', 1],
        ],
      },
    ],
  },
];

export const WELDING_GUIDES: DemoGuide[] = [
  {
    key: 'mig-tip',
    title: 'Replace the Contact Tip and Nozzle on a MIG Torch',
    category: 'MIG Welders',
    subject: 'Contact Tip',
    type: 'replacement',
    difficulty: 'Very easy',
    minutes: [5, 10],
    summary: 'Swap a worn contact tip and a spatter-clogged nozzle on a 250 A MIG gun.',
    intro:
      'A worn contact tip makes the arc wander and the wire feed stutter. ' +
      'A nozzle full of spatter blocks the shielding gas and gives porous welds. ' +
      'Both are cheap consumables: change them at the first sign of trouble.',
    conclusion: "Log the consumables you used on the welder's card so stock can be reordered.",
    flags: [],
    parts: [
      ['Contact tip, 0.035 in', 1, 'Match the wire diameter'],
      ['Nozzle, 1/2 in bore', 1],
      ['Anti-spatter gel', 1],
    ],
    tools: [
      ['MIG pliers', 1],
      ['Welding gloves', 1],
    ],
    tags: ['welding', 'mig', 'consumables'],
    hue: WELD,
    steps: [
      {
        title: 'Switch off the welder',
        pictures: ['Welder power switch'],
        lines: [
          ['black', 'Switch off the welder and let the torch cool for a few minutes.'],
          ['orange', 'The nozzle stays hot long after the arc stops. Wear gloves.', 1],
        ],
      },
      {
        title: 'Remove the nozzle',
        pictures: ['Twisting off nozzle'],
        lines: [['black', 'Twist the nozzle clockwise while pulling it off the torch.']],
      },
      {
        title: 'Replace the contact tip',
        pictures: ['Worn tip', 'New tip'],
        lines: [
          ['black', 'Unscrew the contact tip with the MIG pliers.'],
          ['black', 'A keyholed (oval) bore means the tip is worn.', 1],
          ['black', 'Screw in the new tip snug with the pliers.'],
        ],
      },
      {
        title: 'Clean or replace the nozzle',
        pictures: ['Spatter in nozzle'],
        lines: [
          ['black', 'Scrape spatter out of the nozzle with the MIG pliers.'],
          ['black', 'Replace the nozzle if spatter has welded itself on or the insulation is cracked.'],
          ['black', 'Dip the cleaned nozzle in anti-spatter gel.', 1],
        ],
      },
      {
        title: 'Refit and test',
        pictures: ['Test bead'],
        lines: [
          ['black', 'Push the nozzle back on with a twist.'],
          ['black', 'Switch the welder on, trim the wire to 3/8 in stick-out and run a test bead on scrap.'],
          ['green', 'A steady hiss and a smooth bead mean the job is done.'],
        ],
        form: [{ type: 'Document', label: 'Consumables log sheet (scan or PDF)' }],
      },
    ],
  },
  {
    key: 'mig-setup',
    title: 'Set Up a MIG Welder for Mild Steel',
    category: 'MIG Welders',
    subject: 'Machine Setup',
    type: 'installation',
    difficulty: 'Moderate',
    minutes: [20, 30],
    summary:
      'Drive rolls, wire, gas and polarity for short-circuit MIG on 1/8 in mild steel. Draft: not yet published.',
    intro: 'This guide is being written. The settings below are for ER70S-6 wire in 75/25 argon/CO2 shielding gas.',
    conclusion: 'Draft.',
    flags: ['GUIDE_IN_PROGRESS'],
    parts: [
      ['ER70S-6 wire, 0.035 in, 11 lb spool', 1],
      ['75/25 argon/CO2 cylinder', 1],
    ],
    tools: [
      ['Flow meter', 1],
      ['Adjustable wrench', 1],
    ],
    public: false,
    tags: ['welding', 'mig', 'setup'],
    hue: WELD + 20,
    steps: [
      {
        title: 'Check the polarity',
        pictures: ['Polarity terminals'],
        lines: [['black', 'Solid wire with gas runs DCEP: the torch lead on the positive terminal.']],
      },
      {
        title: 'Fit the drive rolls',
        pictures: ['Drive roll groove'],
        lines: [['black', 'Use the V-groove rolls sized for 0.035 in wire.']],
      },
      {
        title: 'Load the wire',
        pictures: ['Wire spool'],
        lines: [
          ['black', 'Hold the wire end so it cannot unravel, feed it through the inlet guide and over the rolls.'],
          ['black', 'Set the roll tension just high enough that the wire does not slip when pinched at the tip.', 1],
        ],
      },
      {
        title: 'Connect the gas',
        pictures: ['Regulator'],
        lines: [
          ['black', 'Crack the cylinder valve to blow out dust before fitting the regulator.'],
          ['black', 'Set the flow to 25 cubic feet per hour.'],
        ],
      },
      {
        title: 'Set voltage and wire speed',
        pictures: ['Settings chart'],
        lines: [
          ['black', 'Start from the chart inside the wire-feed door: about 18 V and 250 in/min for 1/8 in steel.'],
          ['icon_note', 'Fine-tune by ear: a steady crackle like bacon frying.', 1],
        ],
      },
    ],
  },
  {
    key: 'helmet-lens',
    title: 'Replace the Cover Lens on an Auto-Darkening Welding Helmet',
    category: 'Welding',
    subject: 'Helmet',
    type: 'replacement',
    difficulty: 'Very easy',
    minutes: [2, 5],
    summary: 'Swap the spatter-pitted outer cover lens so you can see the puddle again.',
    intro:
      'The clear outer lens protects the expensive auto-darkening filter. ' +
      'When it is pitted or hazed, replace it; do not polish it.',
    conclusion: 'Keep a pack of cover lenses in the welding cart. They are cheap and a clear view makes better welds.',
    flags: ['GUIDE_USER_CONTRIBUTED'],
    author: 'tech1',
    parts: [['Outer cover lens for your helmet model', 1]],
    tools: [],
    tags: ['welding', 'ppe'],
    hue: WELD - 30,
    steps: [
      {
        title: 'Remove the lens holder',
        pictures: ['Helmet front'],
        lines: [['black', 'Press the tab at the bottom of the front lens holder and lift it off.']],
      },
      {
        title: 'Take out the old lens',
        pictures: ['Pitted lens'],
        lines: [['black', 'Slide out the old cover lens and throw it away.']],
      },
      {
        title: 'Peel the film off the new lens',
        pictures: ['Protective film'],
        lines: [
          ['black', 'Peel the protective film off both sides of the new lens.'],
          ['icon_reminder', 'Forgetting the film is the most common reason for a "foggy" new lens.', 1],
        ],
      },
      {
        title: 'Fit the new lens',
        pictures: ['Lens in holder'],
        lines: [['black', 'Slide the new lens in with the curved side out and snap the holder back on.']],
      },
      {
        title: 'Check the sensors',
        pictures: ['Arc sensors'],
        lines: [
          ['black', 'Make sure the holder does not cover the arc sensors.'],
          ['black', 'Test the darkening with a lighter flame in front of the sensors.', 1],
        ],
      },
    ],
  },
];
