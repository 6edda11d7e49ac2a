/**
 * The labels of the records the replay writes when the site decided a session (core/worklog/replay/follow-site.ts,
 * core/worklog/removed-on-site.ts): the core finds a session's by them, the sync centre words its card's button
 * by them (a session removed on the site has no state there to keep).
 */
export const SITE_DECIDED = {
  cancelled: 'Cancelled on the site',
  complete: 'Finished on the site',
  takenOver: 'Taken over on the site by',
  removed: 'Removed on the site',
} as const;
