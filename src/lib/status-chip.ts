import type { NetworkState, OutboxSummary, SyncState } from '../../electron/contract.ts';
import { freeSomeSpace, writeDownThenRestart } from '../../electron/shared/disk-words.ts';
import { formatAgo, plural } from './format.ts';
import { otherProblem, phaseWords, progressFraction, syncStopped } from './sync-phase.ts';

export type ChipTone = 'ok' | 'busy' | 'offline' | 'problem' | 'idle';

/** The outbox's summary when nothing of anyone's waits (before the first answer of the core, too). */
export const NOTHING_WAITING: OutboxSummary = {
  pending: 0,
  retrying: 0,
  inFlight: 0,
  failed: 0,
  conflicts: 0,
  others: [],
  heldAside: 0,
  diskFull: false,
  diskLow: false,
  workRefused: false,
  diskFailed: false,
  nextTryAt: null,
  told: 0,
};

/**
 * Whether the disk is to be said (full, its reserve given back or used up, or not writable at all): the chip and
 * the run header lead to the Sync centre's card, which says what it means.
 */
export const diskSaid = (outbox: OutboxSummary): boolean =>
  outbox.diskFull || outbox.diskLow || outbox.workRefused || outbox.diskFailed;

export interface StatusChip {
  tone: ChipTone;
  /** Short, for the chip itself: `lead`, then ` · ` and `tail` when there is one. */
  text: string;
  /** The state in words ("2 conflicts", "Offline", "Synced 5 minutes ago"). */
  lead: string;
  /** This technician's changes not sent yet ("3 unsent"), said after the state; null when none or said in it. */
  tail: string | null;
  /** The whole sentence, for the accessible name and the tooltip. */
  detail: string;
  /** What a screen reader is told when it changes: the detail without a clock that ticks. */
  announce: string;
  /** Changes of this technician not yet on the site (waiting or being sent). */
  unsent: number;
  /** Changes of other technicians waiting on this laptop: counted apart, never mixed into this technician's. */
  othersUnsent: number;
}

/**
 * The one status chip of the top bar: network, sync and the current technician's unsent work in one honest
 * sentence. What the technician must act on comes first (conflicts, failures: red); offline is calm (amber:
 * the work is kept here and goes later); then a sync or sending in progress; then the last sync. Other
 * technicians' work waiting on the laptop is said apart, in the full sentence, as a count.
 */
export function statusChip(input: {
  network: NetworkState;
  sync: SyncState | null;
  outbox: OutboxSummary;
  nowMs: number;
}): StatusChip {
  const chip = ownChip(input);
  const othersUnsent = input.outbox.others.reduce((sum, other) => sum + other.unsent, 0);
  if (othersUnsent === 0) return { ...chip, othersUnsent };
  const apart =
    ` Apart from yours, ${plural(othersUnsent, 'change')} of other ` +
    `technicians wait${othersUnsent === 1 ? 's' : ''} on this computer.`;
  return { ...chip, detail: chip.detail + apart, announce: chip.announce + apart, othersUnsent };
}

function ownChip(input: {
  network: NetworkState;
  sync: SyncState | null;
  outbox: OutboxSummary;
  nowMs: number;
}): Omit<StatusChip, 'othersUnsent'> {
  const { network, sync, outbox } = input;
  const unsent = outbox.pending + outbox.inFlight;
  // Beside a conflict or a failure, work going out says so: "1 conflict · 13 unsent" read as if the sending had
  // stopped while it drained (a walk of stop 71, the site back after a day away).
  const sending = outbox.inFlight > 0 && network !== 'offline' && !outbox.diskFull && !outbox.diskLow;
  const unsentWords =
    unsent === 0
      ? 'nothing waiting to be sent'
      : sending
        ? `${plural(unsent, 'change')} being sent`
        : `${plural(unsent, 'change')} not sent yet`;
  const tail = unsent === 0 ? null : sending ? `sending ${unsent}…` : `${unsent} unsent`;
  /** The chip's words: the state, then this technician's unsent count unless `alone` (the state says it). */
  const words = (lead: string, alone = false) => {
    const after = alone ? null : tail;
    return { text: after ? `${lead} · ${after}` : lead, lead, tail: after };
  };

  if (outbox.conflicts > 0) {
    // A change the site refused is said beside the conflicts, not hidden behind them: both wait for the technician.
    const failed = outbox.failed > 0 ? `; ${plural(outbox.failed, 'change')} could not be sent` : '';
    const said = `${plural(outbox.conflicts, 'conflict')} to settle in the sync centre${failed}; ${unsentWords}.`;
    return {
      tone: 'problem',
      ...words(`${plural(outbox.conflicts, 'conflict')}${outbox.failed > 0 ? `, ${outbox.failed} failed` : ''}`),
      detail: said,
      announce: said,
      unsent,
    };
  }
  if (outbox.failed > 0) {
    return {
      tone: 'problem',
      // "failed", as the sync centre and the sessions count them: "not accepted" named a refusal, and a change
      // the site kept failing on (stuck) was not refused.
      ...words(`${outbox.failed} failed`),
      detail:
        `${plural(outbox.failed, 'change')} could not be sent: see the sync centre. ` +
        `Nothing is lost; ${unsentWords}.`,
      announce:
        `${plural(outbox.failed, 'change')} could not be sent: see the sync centre. ` +
        `Nothing is lost; ${unsentWords}.`,
      unsent,
    };
  }
  if (outbox.diskFailed) {
    // Not "Disk full… Free some space" (the replay's hold): the disk takes no write at all, until a restart.
    const failed =
      'This computer cannot write to its disk (it has turned read-only or is failing): nothing more saves until the ' +
      `computer restarts; everything saved is kept${unsent > 0 ? `, ${plural(unsent, 'change')} not sent yet` : ''}. ` +
      writeDownThenRestart();
    return { tone: 'problem', ...words('Disk error'), detail: failed, announce: failed, unsent };
  }
  if (outbox.workRefused) {
    // Not "Your work still saves": a Save was refused already, and the technician read that it was kept.
    const refused =
      'The disk is full, and the little room Fieldguide kept for your work is used up: your work no longer saves. ' +
      'What you typed and could not save stays on the screen while its window stays open. ' +
      `${freeSomeSpace()}, then save it again. ` +
      (unsent > 0
        ? `${plural(unsent, 'change')} saved, not sent yet; nothing saved is lost.`
        : 'Nothing saved is lost.');
    return { tone: 'problem', ...words('Disk full'), detail: refused, announce: refused, unsent };
  }
  if (outbox.diskFull && unsent > 0) {
    // Not "Sending 2…": nothing goes while the disk cannot record what the site answers.
    const held =
      `The disk is full: ${plural(unsent, 'change')} ${unsent === 1 ? 'waits' : 'wait'} on this computer, ` +
      'nothing is lost. Free some space; they go by themselves soon after, or with Send now in the sync centre.';
    return { tone: 'problem', ...words('Disk full'), detail: held, announce: held, unsent };
  }
  if (outbox.diskLow) {
    // Said before offline: the next save may fail on a disk with no room left, and only the technician can free it.
    const low =
      'The disk is full. Your work still saves, in the little room Fieldguide kept for it. ' +
      `${freeSomeSpace()} before that runs out too. ` +
      (unsent > 0 ? `${plural(unsent, 'change')} not sent yet; nothing is lost.` : 'Nothing waits to be sent.');
    return { tone: 'problem', ...words('Disk full'), detail: low, announce: low, unsent };
  }
  if (network === 'offline') {
    const kept =
      `Offline. ${plural(unsent, 'change')} kept on this computer — ` + 'they will be sent when the site answers.';
    return unsent > 0
      ? {
          tone: 'offline',
          ...words('Offline'),
          detail: kept,
          announce: kept,
          unsent,
        }
      : {
          tone: 'offline',
          ...words('Offline'),
          detail: 'Offline. The guides on this computer still work; nothing is waiting to be sent.',
          announce: 'Offline. The guides on this computer still work; nothing is waiting to be sent.',
          unsent,
        };
  }
  if (sync?.running) {
    const fraction = progressFraction(sync.progress);
    return {
      tone: 'busy',
      ...words(`Syncing${fraction === null ? '…' : ` ${Math.round(fraction * 100)}%`}`),
      detail: `${phaseWords(sync.progress.phase)}; ${unsentWords}.`,
      announce: `Syncing the library; ${unsentWords}.`,
      unsent,
    };
  }
  if (unsent > 0 && outbox.inFlight === 0 && (outbox.nextTryAt !== null || outbox.retrying === outbox.pending)) {
    // Every change waits for its next try after one that did not go through, or behind one that does: not
    // "sending" meanwhile (a lost start waited 20 s to be looked for, three saves behind it: "Sending 4…").
    const waits =
      `${plural(unsent, 'change')} ${unsent === 1 ? 'waits' : 'wait'} for another try: the last one did not ` +
      'go through (the sync centre says why). Nothing is lost.';
    return { tone: 'busy', ...words(`${unsent} waiting`, true), detail: waits, announce: waits, unsent };
  }
  if (unsent > 0) {
    return {
      tone: 'busy',
      ...words(`Sending ${unsent}…`, true),
      detail: `Sending ${plural(unsent, 'change')} to the site.`,
      announce: `Sending ${plural(unsent, 'change')} to the site.`,
      unsent,
    };
  }
  if (sync?.lastError && syncStopped(sync)) {
    const said = `The last sync stopped: ${sentence(sync.lastError.message)} Everything you did has reached the site.`;
    return { tone: 'problem', ...words('Last sync failed'), detail: said, announce: said, unsent };
  }
  if (sync?.lastSyncAt) {
    const ago = formatAgo(sync.lastSyncAt, input.nowMs);
    // A sync that went on past a guide it could not store finished: the guide is named in the sync centre.
    const missing = sync.lastError ? sync.failedGuides.length : 0;
    const other = otherProblem(sync);
    const notKept =
      (missing > 0 ? ` ${plural(missing, 'guide')} could not be stored: the sync centre says which and why.` : '') +
      (other ? ` The last sync finished with a problem: ${sentence(other.message)}` : '');
    return {
      tone: 'ok',
      ...words(`Synced ${ago}`),
      detail: `Online. Synced ${ago}; everything you did has reached the site.${notKept}`,
      announce: `Online. Everything you did has reached the site.${notKept}`,
      unsent,
    };
  }
  return {
    tone: 'idle',
    ...words('Not synced yet'),
    detail: 'Not synced yet: open the sync centre to download the guides.',
    announce: 'Not synced yet: open the sync centre to download the guides.',
    unsent,
  };
}

/** The site's words as a sentence, ended by a full stop when they have none ("Internal error reading guide"). */
const sentence = (words: string): string => (/[.!?]$/.test(words.trim()) ? words.trim() : `${words.trim()}.`);
