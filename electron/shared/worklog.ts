import type { WorkStatus, WorkTransition } from '../contract.ts';

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
 * One table for both sides: the core accepts, replays and resolves actions by it, the renderer shows the
 * buttons it allows. The reference server keeps its own (it plays the site); a test holds the two together.
 */
export const TRANSITION_TABLE: Readonly<
  Record<WorkTransition, { readonly from: WorkStatus; readonly to: WorkStatus }>
> = {
  // In the order a view lays its buttons out.
  resume: { from: 'paused', to: 'started' },
  assume: { from: 'suspended', to: 'started' },
  pause: { from: 'started', to: 'paused' },
  suspend: { from: 'started', to: 'suspended' },
  finish: { from: 'started', to: 'complete' },
  cancel: { from: 'started', to: 'cancelled' },
};

/** Every transition, in the table's order: what the App API accepts as one (core/worklog/worklog-methods.ts). */
export const TRANSITIONS = Object.freeze(Object.keys(TRANSITION_TABLE)) as readonly [
  WorkTransition,
  ...WorkTransition[],
];

export function canApply(status: WorkStatus, transition: WorkTransition): boolean {
  return TRANSITION_TABLE[transition].from === status;
}

export function targetOf(transition: WorkTransition): WorkStatus {
  return TRANSITION_TABLE[transition].to;
}

export function sourceOf(transition: WorkTransition): WorkStatus {
  return TRANSITION_TABLE[transition].from;
}

/** The transitions a technician may take from a status, in the order a view lays them out. */
export function allowedTransitions(status: WorkStatus): WorkTransition[] {
  return TRANSITIONS.filter((transition) => canApply(status, transition));
}

export const isEnded = (status: WorkStatus): boolean => status === 'complete' || status === 'cancelled';
export const isOpen = (status: WorkStatus): boolean => !isEnded(status);
/** Step data can change while the session is started or paused, never once it ended or was handed over. */
export const isEditable = (status: WorkStatus): boolean => status === 'started' || status === 'paused';

/**
 * Whether two work orders as typed name the same job: case, surrounding and repeated spaces aside, in any script
 * (the start form asks before a second session of one; "WO  DOUBLE 1" and "wo double 1" are one work order).
 */
export const sameWorkOrder = (a: string, b: string): boolean => {
  const key = (order: string) => order.trim().replace(/\s+/g, ' ').toLowerCase();
  return key(a) === key(b);
};
