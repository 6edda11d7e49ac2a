/** Guide flags (reference 2.9): ids as real sites use them, with the title and text a client shows. */
export const FLAGS = {
  GUIDE_PREREQ_ONLY: { title: 'Prerequisite only', text: 'This guide is only used as a prerequisite of other guides.' },
  GUIDE_STARRED: { title: 'Featured', text: 'A featured guide, recommended by the site staff.' },
  GUIDE_USER_CONTRIBUTED: { title: 'User contributed', text: 'Written by a member of the community.' },
  GUIDE_IN_PROGRESS: { title: 'In progress', text: 'This guide is still being written and may be incomplete.' },
  DANGER: {
    title: 'Danger',
    text: 'This procedure involves hazards that can cause serious injury. Follow every caution.',
  },
  DEATH: {
    title: 'Risk of death',
    text: 'Mistakes in this procedure can kill. Do not proceed without training and the required protective equipment.',
  },
  GUIDE_DELETE: { title: 'Marked for deletion', text: 'This guide is scheduled to be removed.' },
} as const;

export type FlagId = keyof typeof FLAGS;

export function isFlagId(value: string): value is FlagId {
  return Object.hasOwn(FLAGS, value);
}

/** Flag object of reference 2.9; `image` is an icon drawn by this server. */
export function flagObject(
  flagid: FlagId,
  origin: string,
): { flagid: FlagId; image: string; title: string; text: string } {
  return { flagid, image: `${origin}/flags/${flagid}.png`, ...FLAGS[flagid] };
}
