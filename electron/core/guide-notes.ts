import { ChangesService } from './changes/changes-service.ts';
import type { ServerClock } from './connection/server-clock.ts';
import type { GuideReader } from './db/repos/guide-row.ts';
import type { Store } from './db/store.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { SiteModules } from './sync/site-modules.ts';
import { commentsOutbox } from './comments/comments-outbox.ts';
import { CommentsService } from './comments/comments-service.ts';

/**
 * What a technician notices on a guide, joined to the app (issue 30): comments (their kinds registered
 * with the outbox) and the changes since they last used it. Both are the current technician's.
 */
export function guideNotes(deps: {
  store: Store;
  clock: Pick<ServerClock, 'stamp'>;
  outbox: Outbox;
  modules: Pick<SiteModules, 'offers'>;
  technician: () => number | null;
  reader: () => GuideReader | null;
  now: () => number;
}): { comments: CommentsService; changes: ChangesService } {
  const { store, technician } = deps;
  const readable = (guideid: number) => store.guides.readable(guideid, deps.reader());
  deps.outbox.register(commentsOutbox({ store }));
  const comments = new CommentsService({
    store,
    clock: deps.clock,
    outbox: deps.outbox,
    technician,
    offered: () => deps.modules.offers('comments', true),
    readable,
    stepsOf: (guideid) =>
      (store.guides.getDetail(guideid)?.steps ?? []).filter((s) => s.guideid === guideid).map((s) => s.stepid),
  });
  return { comments, changes: new ChangesService({ store, technician, readable, now: deps.now }) };
}
