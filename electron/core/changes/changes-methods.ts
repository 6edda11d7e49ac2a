import { z } from 'zod';
import type { ChangesApi } from '../../contract.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { ChangesService } from './changes-service.ts';

/** The App API of guide changes: what changed since the technician last read a guide, and that they saw it. */
export const changesMethods = defineMethods<keyof ChangesApi, ChangesService>({
  guideChanges: { input: z.tuple([id]), run: (changes, guideid) => changes.changes(guideid) },
  seenGuideChanges: { input: z.tuple([id]), technician: true, run: (changes, guideid) => changes.seen(guideid) },
  changedGuides: { input: z.tuple([]), run: (changes) => changes.changed() },
});
