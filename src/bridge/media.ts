import { BRIDGE_GLOBAL, desktopMediaUrl, webMediaUrl } from '../../electron/contract.ts';

/**
 * The address of a media file's local copy: the desktop app's media protocol, or the web shell's media
 * route. Both serve only what the library downloaded; anything else is a 404, never the network.
 */
export function mediaSrc(siteUrl: string | undefined | null): string | undefined {
  if (!siteUrl) return undefined;
  return window[BRIDGE_GLOBAL] ? desktopMediaUrl(siteUrl) : webMediaUrl(siteUrl);
}
