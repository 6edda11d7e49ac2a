import type { WorkSession } from '../../contract.ts';
import type { ServerClock } from '../connection/server-clock.ts';
import type { Store } from '../db/store.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { KeptFiles } from './kept-files.ts';

/** What the work sessions' actions (actions/) are built with. */
export interface WorkSessionsDeps {
  store: Store;
  attachmentsDir: string;
  /** Lets go of kept files the work no longer needs (a file replaced or cleared before it left). */
  keptFiles: Pick<KeptFiles, 'consider'>;
  /** Local clock, unix seconds. */
  now: () => number;
  /** When the technician acts, on the site's clock, with what re-dates it once the site answers (server-clock.ts). */
  clock: Pick<ServerClock, 'stamp'>;
  /** Where each action is queued, in the transaction that applies it. */
  outbox: Pick<Outbox, 'enqueue' | 'amend'>;
  /** The current technician (throws when nobody works now): what they do is recorded under their name. */
  technician: () => { id: number; userid: number };
  /** Whether the current technician may read the guide (a private one: admins and its author). */
  readable: (guideid: number) => boolean;
  onChange: (session: WorkSession) => void;
  /** Whether the site takes pictures only (iFixit's media manager, as learned): a video or document is refused. */
  picturesOnly?: () => boolean;
}
