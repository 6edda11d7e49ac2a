import { z } from 'zod';
import type { SiteInfo } from '../../contract.ts';

/** The site this app works with, as kept in the settings (`site`). */
export const siteSetting: z.ZodType<SiteInfo> = z.object({
  url: z.string(),
  demo: z.boolean(),
  anonymous: z.boolean().optional(),
  mediaOrigins: z.array(z.string()).optional(),
  appId: z.string().nullish(),
});

/** What the technician chose for a site that a new connection to the same address keeps: the media origins allowed. */
export function keptFor(current: SiteInfo | null, siteUrl: string): Pick<SiteInfo, 'mediaOrigins'> {
  const origins = current?.url === siteUrl ? current.mediaOrigins : undefined;
  return origins ? { mediaOrigins: origins } : {};
}

/** The site with media allowed from `origin` too (api/media-hosts.ts). */
export function withMediaOrigin(site: SiteInfo, origin: string): SiteInfo {
  return { ...site, mediaOrigins: [...new Set([...(site.mediaOrigins ?? []), origin])] };
}

/**
 * The application id to connect to `siteUrl` with: the one typed (trimmed; empty is none), else, for a
 * second technician signing in to the site in use, the one kept with it.
 */
export function appIdFor(site: SiteInfo | null, siteUrl: string, typed: string | undefined): string | null {
  if (typed !== undefined) return typed.trim() || null;
  return site?.url === siteUrl ? (site.appId ?? null) : null;
}
