import {
  BRIDGE_GLOBAL,
  desktopMediaUrl,
  webMediaUrl,
  type ImageVariants,
  type MediaOptions,
} from '../../electron/contract.ts';
import { zoomCandidates } from '../../electron/shared/media.ts';
import { launch } from './launch.ts';

/**
 * The address of a media file through the shell: the desktop app's media protocol, or the web shell's
 * media route. Both serve what the library downloaded; `options` may name stored alternatives and let
 * the first come from the site (the contract's media route says which). Never the network directly.
 */
export function mediaSrc(siteUrl: string | undefined | null, options?: MediaOptions): string | undefined {
  if (!siteUrl) return undefined;
  if (window[BRIDGE_GLOBAL]) return desktopMediaUrl(siteUrl, options);
  // The web shell's media route takes the read key in the address: an <img> sends no header.
  return webMediaUrl(siteUrl, { ...options, key: launch()?.readKey ?? '' });
}

/** A picture for the zoom view: the original from the site while it answers, else the best variant stored. */
export function zoomSrc(image: ImageVariants): string | undefined {
  const [best, ...others] = zoomCandidates(image);
  return mediaSrc(best, { or: others, live: true });
}
