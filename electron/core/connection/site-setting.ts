import { z } from 'zod';
import type { SiteInfo } from '../../contract.ts';

/** The site this app works with, as kept in the settings. */
export const siteSetting = z.object({
  url: z.string(),
  demo: z.boolean(),
  anonymous: z.boolean().optional(),
  appId: z.string().nullish(),
});

/**
 * The application id to connect to `siteUrl` with: the one typed (trimmed; empty is none), else, for a
 * second technician signing in to the site in use, the one kept with it.
 */
export function appIdFor(site: SiteInfo | null, siteUrl: string, typed: string | undefined): string | null {
  if (typed !== undefined) return typed.trim() || null;
  return site?.url === siteUrl ? (site.appId ?? null) : null;
}
