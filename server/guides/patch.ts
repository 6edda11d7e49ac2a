import { z } from 'zod';
import type { Db } from '../db/types.ts';
import { invalid } from '../http/errors.ts';
import { FLAGS } from './flags.ts';
import type { GuideRow } from './repo.ts';
import type { GuideFields } from './write.ts';

const item = z.object({
  text: z.string().min(1),
  quantity: z.number().int().min(0).default(1),
  url: z.string().default(''),
  thumbnail: z.string().default(''),
  notes: z.string().default(''),
});

/** `PATCH /guides/{guideid}`: any of these; the others keep their value. Unknown keys are ignored. */
export const guidePatch = z.object({
  title: z.string().trim().min(1).max(200).optional(),
  subject: z.string().max(200).optional(),
  summary: z.string().max(2000).optional(),
  category: z.string().min(1).optional(),
  type: z
    .enum(['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to'])
    .optional(),
  difficulty: z.enum(['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult']).optional(),
  introduction_raw: z.string().optional(),
  conclusion_raw: z.string().optional(),
  time_required: z.string().optional(),
  time_required_min: z.number().int().min(0).optional(),
  time_required_max: z.number().int().min(0).optional(),
  public: z.boolean().optional(),
  flags: z.array(z.enum(Object.keys(FLAGS) as [keyof typeof FLAGS, ...(keyof typeof FLAGS)[]])).optional(),
  parts: z.array(item).optional(),
  tools: z.array(item).optional(),
  prerequisites: z.array(z.number().int().positive()).optional(),
});
export type GuidePatch = z.infer<typeof guidePatch>;

/** The fields after the patch, or null when it changes nothing (no new revision then). */
export function applyGuidePatch(db: Db, row: GuideRow, fields: GuideFields, patch: GuidePatch): GuideFields | null {
  if (patch.category !== undefined && !db.prepare('SELECT 1 FROM categories WHERE title = ?').get(patch.category)) {
    throw invalid('category', 'invalid_value', `No category named ${patch.category}`);
  }
  for (const id of patch.prerequisites ?? []) {
    if (id === row.guideid || !db.prepare('SELECT 1 FROM guides WHERE guideid = ?').get(id)) {
      throw invalid('prerequisites', 'invalid_value', `Guide ${id} cannot be a prerequisite of this guide`);
    }
  }
  const next: GuideFields = { ...fields };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (next.time_required_max < next.time_required_min) {
    throw invalid('time_required_max', 'invalid_value', 'time_required_max must not be less than time_required_min');
  }
  return JSON.stringify(next) === JSON.stringify(fields) ? null : next;
}
