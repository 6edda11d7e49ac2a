import type { Db } from '../db/types.ts';

/**
 * The demo workshop's content (guides, categories, media, ...), seeded after `seedDemoPeople`.
 * Stub until the content side fills it in; that side owns this file.
 */
export function seedDemoContent(_db: Db): void {}
