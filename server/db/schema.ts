import type { SchemaModule } from './types.ts';
import { contentSchema } from './schema-content.ts';
import { approvalsSchema } from './schema-approvals.ts';
import { coreSchema } from './schema-core.ts';
import { mediaUsesSchema } from './schema-media-uses.ts';
import { workspacesSchema } from './schema-workspaces.ts';
import { translationsSchema } from './schema-translations.ts';
import { releasesSchema } from './schema-releases.ts';
import { howToGuidesSchema, idsNeverReusedSchema } from './schema-ids.ts';
import { documentPagesSchema } from './schema-document-pages.ts';

/**
 * Every schema module in the order it is applied. A module runs once per database file (recorded by name
 * in `schema_modules`), so add new tables as a new module at the end rather than editing an applied one.
 */
export const SCHEMA: readonly SchemaModule[] = [
  coreSchema,
  contentSchema,
  workspacesSchema,
  approvalsSchema,
  mediaUsesSchema,
  translationsSchema,
  releasesSchema,
  idsNeverReusedSchema,
  documentPagesSchema,
  howToGuidesSchema,
];
