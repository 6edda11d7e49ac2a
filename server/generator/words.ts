import type { Bullet } from '../db/schema-content.ts';
import type { GuideType } from '../guides/write.ts';

/** Vocabulary of generated sites: plausible shop-floor titles and step text from a seeded PRNG. */
export const EQUIPMENT = [
  'Air Compressor',
  'Band Saw',
  'Lathe',
  'Milling Machine',
  'Drill Press',
  'Forklift',
  'Pallet Jack',
  'Scissor Lift',
  'MIG Welder',
  'TIG Welder',
  'Plasma Cutter',
  'Hydraulic Press',
  'Surface Grinder',
  'Bench Grinder',
  'Parts Washer',
  'Dust Collector',
  'Conveyor',
  'Overhead Crane',
  'Boiler',
  'Chiller',
  'Generator',
  'Pressure Washer',
  'Shear',
  'Press Brake',
] as const;

export const PARTS = [
  'drive belt',
  'bearing',
  'filter',
  'seal',
  'hose',
  'gasket',
  'pulley',
  'motor brush',
  'relief valve',
  'pressure switch',
  'coolant pump',
  'limit switch',
  'guard',
  'chain',
  'sprocket',
  'blade',
  'nozzle',
  'fuse',
  'contactor',
  'gear',
  'coupling',
  'wiper',
  'gib',
  'spring',
  'fan',
  'thermostat',
  'solenoid',
  'sensor',
  'lamp',
  'handle',
] as const;

export const MODELS = ['100', '200', '250', '300', '450', '500', '750', '1000', 'X2', 'S3', 'HD', 'Pro'] as const;

export const VERBS: readonly { verb: string; type: GuideType }[] = [
  { verb: 'Replace', type: 'replacement' },
  { verb: 'Install', type: 'installation' },
  { verb: 'Repair', type: 'repair' },
  { verb: 'Remove', type: 'disassembly' },
  { verb: 'Inspect', type: 'maintenance' },
  { verb: 'Adjust', type: 'technique' },
  { verb: 'Clean', type: 'maintenance' },
  { verb: 'Tear Down', type: 'teardown' },
];

export const STEP_ACTIONS = [
  'Loosen',
  'Remove',
  'Inspect',
  'Clean',
  'Measure',
  'Tighten',
  'Align',
  'Lubricate',
  'Disconnect',
  'Reconnect',
  'Check',
  'Mark',
] as const;

export const OBJECTS = [
  'the mounting bolts',
  'the access panel',
  'the retaining clip',
  'the cover plate',
  'the wiring harness',
  'the locknut',
  'the set screw',
  'the bracket',
  'the alignment marks',
  'the fluid level',
  'the tension',
  'the housing',
] as const;

export const DETAILS = [
  'Work in a cross pattern so the part seats evenly.',
  'Keep the old part for comparison until the job is finished.',
  'Note the position of each wire before disconnecting it.',
  'Use the torque value from the data plate.',
  'Wipe the mating surfaces with a clean, lint-free rag.',
  'Replace any fastener with damaged threads.',
  'A light film of oil makes reassembly easier.',
  'Check for play by hand before going further.',
] as const;

export const CAUTIONS = [
  'Make sure the machine is locked out before you start.',
  'Stored pressure can remain after shut-down: bleed it first.',
  'Wear eye protection: springs can release without warning.',
  'Never reach past a guard while the machine can move.',
] as const;

export const DETAIL_BULLETS: readonly Bullet[] = [
  'black',
  'black',
  'black',
  'orange',
  'yellow',
  'green',
  'blue',
  'light_blue',
  'violet',
  'icon_note',
  'icon_reminder',
];
