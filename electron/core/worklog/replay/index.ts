import type { UploadEndpoint } from '../../api/user-media-api.ts';
import type { Store } from '../../db/store.ts';
import type { EventHub } from '../../events.ts';
import type { OutboxFeature } from '../../outbox/registry.ts';
import type { KeptFiles } from '../kept-files.ts';
import type { WorklogReplayDeps } from './context.ts';
import { dropWithDiscarded } from './discarded.ts';
import { doublesCheckAction } from './doubles-check.ts';
import { startAction } from './start.ts';
import { stepDataAction } from './step-data.ts';
import { TRANSITION_ACTIONS } from './transition.ts';
import { uploadAction } from './upload.ts';

/** Every kind of action the work log queues (a new kind: its file in this folder, and a line here). */
export const WORKLOG_ACTIONS = [
  startAction,
  ...Object.values(TRANSITION_ACTIONS),
  stepDataAction,
  uploadAction,
  doublesCheckAction,
];

export interface WorklogOutboxDeps {
  store: Store;
  events: EventHub;
  attachmentsDir: string;
  /** Lets go of kept files the work no longer needs (kept-files.ts). */
  keptFiles: Pick<KeptFiles, 'consider'>;
  /** Where the site takes uploads, as learned (api/user-media-api.ts). */
  uploads?: UploadEndpoint;
  /** The current technician's local id, or null: what the renderer is told of. */
  current: () => number | null;
  /** The local clock, unix seconds. */
  now: () => number;
}

/** The work log's kinds, registered with the outbox (services.ts), and how its sessions' views follow a replay. */
export function worklogOutbox(deps: WorklogOutboxDeps): OutboxFeature<WorklogReplayDeps> {
  const { store, events } = deps;
  const { sessions, conflicts } = store;
  return {
    chains: ['session', 'doubles'],
    actions: WORKLOG_ACTIONS,
    deps: {
      sessions,
      conflicts,
      guides: store.guides,
      attachmentsDir: deps.attachmentsDir,
      mayLetGo: (attachmentId) => deps.keptFiles.consider(attachmentId),
      ...(deps.uploads ? { uploads: deps.uploads } : {}),
      now: deps.now,
      ...toldConflicts(deps),
    },
    discarded: (row) => dropWithDiscarded(store, row),
    // The renderer shows the current technician's sessions only; a check for a second copy shows nothing.
    moved: (chain, current) => {
      if (chain.type !== 'session') return;
      const view = sessions.view(chain.id);
      if (view && current !== null && sessions.technicianOf(chain.id) === current) events.emit('session', view);
    },
  };
}

/** Records a conflict, or changes one, and tells the renderer when it is the current technician's. */
export function toldConflicts(
  deps: Pick<WorklogOutboxDeps, 'store' | 'events' | 'current' | 'now'>,
): Pick<WorklogReplayDeps, 'addConflict' | 'amendConflict'> {
  const { conflicts } = deps.store;
  return {
    addConflict: (conflict) => {
      const record = conflicts.add(conflict, deps.now());
      if (conflict.technician === deps.current()) deps.events.emit('conflict', record);
    },
    amendConflict: (id, change) => {
      const record = conflicts.amend(id, change);
      if (conflicts.technicianOf(id) === deps.current()) deps.events.emit('conflict', record);
    },
  };
}
