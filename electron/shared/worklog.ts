/**
 * The work-log state machine of reference 3.1 (DESIGN.md §7 names the states):
 *
 *            start                finish
 *   (none) ───────▶ started ──────────────▶ complete
 *                  │  ▲  │ ▲    cancel
 *            pause │  │  │ └────────────────▶ cancelled
 *                  ▼  │  │ suspend
 *             paused  │  ▼
 *              resume─┘ suspended ──assume──▶ started (another technician)
 *
 * Pure: the local projection, the outbox and the conflict resolvers all ask it.
 */
export type WorkStatus = 'started' | 'paused' | 'suspended' | 'complete' | 'cancelled';
export type Transition = 'pause' | 'resume' | 'suspend' | 'assume' | 'finish' | 'cancel';

const TABLE: Record<Transition, { from: WorkStatus; to: WorkStatus }> = {
  pause: { from: 'started', to: 'paused' },
  resume: { from: 'paused', to: 'started' },
  suspend: { from: 'started', to: 'suspended' },
  assume: { from: 'suspended', to: 'started' },
  finish: { from: 'started', to: 'complete' },
  cancel: { from: 'started', to: 'cancelled' },
};

export const TRANSITIONS = Object.keys(TABLE) as Transition[];

export function canApply(status: WorkStatus, transition: Transition): boolean {
  return TABLE[transition].from === status;
}

export function targetOf(transition: Transition): WorkStatus {
  return TABLE[transition].to;
}

export function sourceOf(transition: Transition): WorkStatus {
  return TABLE[transition].from;
}

export const isEnded = (status: WorkStatus): boolean => status === 'complete' || status === 'cancelled';

/** Which transitions a technician may take from a status (for the buttons a view shows). */
export function allowedFrom(status: WorkStatus): Transition[] {
  return TRANSITIONS.filter((t) => TABLE[t].from === status);
}
