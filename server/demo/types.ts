import type { Bullet, FieldType } from '../db/schema-content.ts';
import type { DemoAccountName } from '../demo-accounts.ts';
import type { FlagId } from '../guides/flags.ts';
import type { Difficulty, GuideType } from '../guides/write.ts';

/** A step line: bullet colour, wiki text, and the indent level (0 when left out). */
export type DemoLine = readonly [Bullet, string] | readonly [Bullet, string, number];

export interface DemoField {
  type: FieldType;
  label: string;
  placeholder?: string;
  textarea?: string;
  options?: string[];
}

export interface DemoStep {
  title: string;
  /** Labels of the pictures drawn for the step (1 to 3). Left out for a video or embed step. */
  pictures?: string[];
  video?: boolean;
  embed?: { html: string; url: string; title?: string };
  lines: DemoLine[];
  form?: DemoField[];
}

/** Part or tool: name, quantity, notes, and whether it is optional. */
export type DemoItem =
  readonly [string, number] | readonly [string, number, string] | readonly [string, number, string, 'optional'];

export interface DemoGuide {
  /** Stable name used by prerequisites, quizzes, comments and tests. */
  key: string;
  title: string;
  category: string;
  subject: string;
  type: GuideType;
  difficulty: Difficulty;
  minutes: readonly [number, number];
  summary: string;
  intro: string;
  conclusion: string;
  flags: FlagId[];
  parts: DemoItem[];
  tools: DemoItem[];
  prereqs?: string[];
  documents?: string[];
  public?: boolean;
  /** Demo account that wrote it; `author` when left out. */
  author?: DemoAccountName;
  tags: string[];
  hue: number;
  steps: DemoStep[];
}
