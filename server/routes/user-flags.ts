import { flagObject, FLAGS, type FlagId } from '../guides/flags.ts';
import { hasPrivilege, requireUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { siteOrigin } from '../http/urls.ts';

// Moderators (and admins) curate: feature and mark for deletion. Authors mark what they write.
const AUTHOR_FLAGS: readonly FlagId[] = ['GUIDE_PREREQ_ONLY', 'GUIDE_IN_PROGRESS', 'DANGER', 'DEATH'];

/** Reference 4.5, `GET /user/flags`: the guide flags the current user may add and remove. */
export const userFlagsRoutes: RouteModule = (api) => {
  api.get('/user/flags', (c) => {
    const user = requireUser(c);
    const allowed = hasPrivilege(user, 'Moderator')
      ? (Object.keys(FLAGS) as FlagId[])
      : hasPrivilege(user, 'Author')
        ? AUTHOR_FLAGS
        : [];
    const origin = siteOrigin(c);
    return c.json({ guide: Object.fromEntries(allowed.map((flagid) => [flagid, flagObject(flagid, origin)])) });
  });
};
