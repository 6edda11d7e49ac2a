import type { PictureQuality, PictureQualityOption, PictureQualityState } from '../../electron/contract.ts';
import { formatBytes, plural } from './format.ts';

/** What each picture quality is, in a technician's words. */
export const QUALITY_WORDS: Record<PictureQuality, { title: string; text: string }> = {
  standard: { title: 'Standard', text: 'The pictures the steps show, 300 pixels wide. Zoom enlarges those.' },
  large: {
    title: 'Large',
    text: "Each step picture also at the site's large size: labels and small parts stay readable.",
  },
  original: { title: 'Original', text: 'Each step picture as it was taken: the sharpest zoom, the most room.' },
};

/** The room a quality takes, as the chooser says it: "About 4.2 MB for 120 pictures (36 already here)". */
export function qualitySize(option: PictureQualityOption): string {
  if (option.quality === 'standard') return 'No extra room: kept with every guide.';
  if (option.pictures === 0) return 'No step pictures in the guides kept offline.';
  // All kept: no room "more" to find ("About 1.2 MB more for 125 pictures, all already here" said both).
  if (option.stored === option.pictures) {
    const size = option.bytes === null ? '' : `, about ${formatBytes(option.bytes)}`;
    return `Already here: ${plural(option.pictures, 'picture')}${size}.`;
  }
  const here = option.stored > 0 ? `, ${option.stored.toLocaleString()} already here` : '';
  const count = `${plural(option.pictures, 'picture')}${here}`;
  if (option.bytes === null) return `Size not known yet (${count}): the site is asked while it answers.`;
  return `About ${formatBytes(option.bytes)} more for ${count}.`;
}

/** The budget beside the estimates, and what the default does with it: "Storage budget 2 GB, 1.1 GB used." */
export function qualityBudget(state: PictureQualityState): string {
  const budget = `Storage budget ${formatBytes(state.budgetBytes)}, ${formatBytes(state.mediaBytes)} used.`;
  if (state.chosen) return budget;
  const title = QUALITY_WORDS[state.quality].title;
  return `${budget} ${title} is kept until you choose: as many as the budget has room for.`;
}
