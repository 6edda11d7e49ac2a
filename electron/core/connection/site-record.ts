import { z } from 'zod';
import type { SiteInfo } from '../../contract.ts';

/** The site as it is kept in settings (`site`). */
export const siteSetting: z.ZodType<SiteInfo> = z.object({
  url: z.string(),
  demo: z.boolean(),
  anonymous: z.boolean().optional(),
  mediaOrigins: z.array(z.string()).optional(),
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
