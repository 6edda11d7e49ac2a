import type { InjectionKey, Ref } from 'vue';

/**
 * Whether the guide on screen was read from the site (not kept): its media then come from the site
 * through the media route (`live`). GuideView provides it; the step media, parts and tools read it.
 * A guide in a work session is always stored: the default is false.
 */
export const GUIDE_MEDIA_LIVE: InjectionKey<Readonly<Ref<boolean>>> = Symbol('guide-media-live');
