import type { DemoAccountName } from '../demo-accounts.ts';

export interface DemoCategory {
  title: string;
  parent?: string;
  description: string;
  contents: string;
  hue: number;
  tags?: string[];
}

/** The workshop's equipment, two levels deep. Parents come before their children. */
export const DEMO_CATEGORIES: DemoCategory[] = [
  {
    title: 'Air Compressors',
    description: 'Stationary and portable shop air compressors.',
    contents:
      "Guides for the shop's belt-driven two-stage compressors: drive, pump, " +
      'tank and safety valves.\n\nThe main unit is a 60-gallon, 5 HP vertical compressor in the east bay.',
    hue: 210,
    tags: ['compressor'],
  },
  {
    title: 'Machine Tools',
    description: 'Lathes, saws and other metal-cutting machines.',
    contents: "Setup, adjustment and maintenance of the machine shop's cutting equipment.",
    hue: 60,
  },
  {
    title: 'Lathes',
    parent: 'Machine Tools',
    description: '12 in and 14 in engine lathes.',
    contents: 'Engine lathes with D1-4 camlock spindles. Always use the chuck board when changing chucks.',
    hue: 95,
    tags: ['lathe'],
  },
  {
    title: 'Band Saws',
    parent: 'Machine Tools',
    description: 'Horizontal metal-cutting band saws.',
    contents: 'The 7 x 12 in horizontal band saws by the stock rack.',
    hue: 25,
  },
  {
    title: 'Forklifts',
    description: 'LP and electric counterbalance forklifts.',
    contents: "Daily checks, fuel and hydraulic repairs for the yard's 5,000 lb LP forklifts.",
    hue: 48,
    tags: ['forklift'],
  },
  {
    title: 'Welding',
    description: 'Welding equipment and protective gear.',
    contents: 'Welders, torches and the personal protective equipment that goes with them.',
    hue: 275,
  },
  {
    title: 'MIG Welders',
    parent: 'Welding',
    description: '250 A MIG welders.',
    contents: "Consumables and setup for the shop's MIG welders.",
    hue: 285,
    tags: ['mig'],
  },
  {
    title: 'Shop Safety',
    description: 'Procedures that apply to every machine.',
    contents: 'Lockout/tagout and other procedures that every technician follows on every job.',
    hue: 0,
    tags: ['safety'],
  },
];

export interface DemoDocument {
  key: string;
  title: string;
  filename: string;
  lines: string[];
}

export const DEMO_DOCUMENTS: DemoDocument[] = [
  {
    key: 'compressor-log',
    title: 'Air Compressor Maintenance Log',
    filename: 'air-compressor-maintenance-log.pdf',
    lines: [
      'Unit: 60-gallon two-stage compressor, east bay',
      '',
      'Daily:    drain the receiver tank',
      'Weekly:   inspect condensate, check belt tension, pull the relief valve ring',
      'Monthly:  clean the intake filter, check for air leaks with soapy water',
      '500 h:    change the pump oil (ISO 100 non-detergent)',
      'Yearly:   replace the drive belt if glazed, inspect the tank',
      '',
      'Date        Hours     Work done                         Initials',
      '__________  ________  ________________________________  ________',
      '__________  ________  ________________________________  ________',
      '__________  ________  ________________________________  ________',
    ],
  },
  {
    key: 'forklift-checklist',
    title: 'Forklift Pre-Shift Checklist',
    filename: 'forklift-pre-shift-checklist.pdf',
    lines: [
      'Truck number: ________    Hour meter: ________    Date: ________',
      '',
      '[ ] No fluid leaks under the truck',
      '[ ] Tires and wheel nuts',
      '[ ] Forks and locking pins',
      '[ ] Mast, chains and hoses',
      '[ ] Fluid levels',
      '[ ] LP tank mounted and not leaking',
      '[ ] Seat belt and overhead guard',
      '[ ] Horn, lights and back-up alarm',
      '[ ] Service and parking brakes',
      '[ ] Lift, tilt and steering',
      '',
      'Operator signature: ______________________',
    ],
  },
];

export interface DemoComment {
  guide: string;
  /** 1-based step number, or left out for a comment on the guide. */
  step?: number;
  by: DemoAccountName;
  text: string;
  /** Index into this list of the comment replied to. */
  replyTo?: number;
}

export const DEMO_COMMENTS: DemoComment[] = [
  {
    guide: 'compressor-belt',
    by: 'tech1',
    text: 'The AX51 from the parts room fits the east bay unit. The old one was an A51 and slipped.',
  },
  {
    guide: 'compressor-belt',
    by: 'author',
    text: 'Thanks, I added a note about the AX cross-section to the parts list.',
    replyTo: 0,
  },
  {
    guide: 'compressor-belt',
    step: 8,
    by: 'tech2',
    text: 'A 5 lb fish scale from the tool crib makes the deflection check easy.',
  },
  {
    guide: 'forklift-inspection',
    step: 4,
    by: 'tech2',
    text: 'FL-03 has a worn left fork, already reported. Do not tag it out for that alone.',
  },
  {
    guide: 'forklift-hose',
    by: 'admin',
    text: 'Mast blocks are in the cage next to the hydraulic bench. Sign them out.',
  },
  {
    guide: 'bandsaw-blade',
    step: 6,
    by: 'tech1',
    text: 'Turning the loop inside out takes practice: wear the gloves!',
  },
];

/** Who marked which guides as favourites. */
export const DEMO_FAVORITES: Partial<Record<DemoAccountName, string[]>> = {
  tech1: ['compressor-belt', 'forklift-inspection'],
  tech2: ['forklift-inspection'],
};
