import { describe, expect, it } from 'vitest';
import type { OutboxSummary, SyncState } from '../../electron/contract.ts';
import { NOTHING_WAITING, statusChip } from '../../src/lib/status-chip.ts';
import { progressCounts } from '../../src/lib/sync-phase.ts';
import { freeSomeSpace } from '../../electron/shared/disk-words.ts';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const clear: OutboxSummary = NOTHING_WAITING;
const synced = (over: Partial<SyncState> = {}): SyncState => ({
  running: false,
  failedGuides: [],
  progress: { phase: 'done', done: 0, total: 0, bytes: 0, message: null },
  lastSyncAt: NOW / 1000 - 60,
  lastError: null,
  scope: { mode: 'all', categories: [], guideids: [] },
  storage: {
    mediaBytes: 0,
    mediaFiles: 0,
    pendingMedia: 0,
    databaseBytes: 0,
    budgetBytes: 1,
    diskFreeBytes: null,
    reserveBytes: 0,
    budgetLimitedTo: null,
  },
  guides: { total: 1, offline: 1 },
  scopeChoice: null,
  repair: null,
  refusedMediaOrigins: [],
  told: 1,
  ...over,
});

describe('the status chip says network, sync and unsent work in one place', () => {
  it('is green and says when it synced, online with nothing waiting', () => {
    const chip = statusChip({ network: 'online', sync: synced(), outbox: clear, nowMs: NOW });
    expect(chip).toMatchObject({ tone: 'ok', text: 'Synced 1 minute ago', unsent: 0 });
  });

  it('says a full disk holds the unsent work, never "Sending" while nothing can go', () => {
    const outbox = { ...clear, pending: 1, inFlight: 1, diskFull: true };
    const chip = statusChip({ network: 'online', sync: synced(), outbox, nowMs: NOW });
    expect(chip).toMatchObject({ tone: 'problem', text: 'Disk full · 2 unsent', unsent: 2 });
    expect(chip.detail).toContain('The disk is full: 2 changes wait on this computer, nothing is lost.');
  });

  it('says a disk that took the reserve is full, even offline, before the next save meets it', () => {
    const outbox = { ...clear, pending: 3, diskLow: true };
    const chip = statusChip({ network: 'offline', sync: synced(), outbox, nowMs: NOW });
    expect(chip).toMatchObject({ tone: 'problem', text: 'Disk full · 3 unsent', unsent: 3 });
    // The one remedy, from its one home (it said "free some space on this computer", no budget, no bin).
    expect(chip.detail).toContain(`${freeSomeSpace()} before that runs out too.`);
    expect(chip.detail).toContain('3 changes not sent yet; nothing is lost.');
    const calm = statusChip({ network: 'online', sync: synced(), outbox: { ...clear, diskLow: true }, nowMs: NOW });
    expect(calm.text).toBe('Disk full');
  });

  it('once work was refused on the full disk, never says it still saves: what is typed is on the screen only', () => {
    // A walk of a full disk: after a Save was refused, the chip's tooltip still said "Your work still saves, in
    // the little room Fieldguide kept for it", and the technician believed the typing was kept.
    const outbox = { ...clear, pending: 2, diskLow: true, diskFull: true, workRefused: true };
    const chip = statusChip({ network: 'offline', sync: synced(), outbox, nowMs: NOW });
    expect(chip).toMatchObject({ tone: 'problem', text: 'Disk full · 2 unsent' });
    expect(chip.detail).not.toContain('still saves');
    expect(chip.detail).toContain('your work no longer saves');
    expect(chip.detail).toContain('What you typed and could not save stays on the screen while its window stays open.');
    expect(chip.detail).toContain('2 changes saved, not sent yet; nothing saved is lost.');
    // The one remedy the Save's refusal and the sync centre give (it said "Free some space on this computer").
    expect(chip.detail).toContain(`${freeSomeSpace()}, then save it again.`);
    expect(chip.announce).toBe(chip.detail);
  });

  it('says a disk that cannot be written as such, never "Disk full… free some space": write down, restart', () => {
    // A walk on a disk turned read-only: the chip said "Disk full" and "Free some space", the Save "Restart".
    const outbox = { ...clear, pending: 1, diskFull: true, diskFailed: true };
    const chip = statusChip({ network: 'offline', sync: synced(), outbox, nowMs: NOW });
    expect(chip).toMatchObject({ tone: 'problem', text: 'Disk error · 1 unsent' });
    expect(chip.detail).toBe(
      'This computer cannot write to its disk (it has turned read-only or is failing): nothing more saves until the ' +
        'computer restarts; everything saved is kept, 1 change not sent yet. Keep this window open and write down ' +
        'anything you typed that is not saved; then restart the computer and type it in again. If this happens ' +
        'again, have its disk checked.',
    );
    expect(chip.detail).not.toMatch(/full|free some space/i);
  });

  it('is calm and amber offline, counting what is kept on this laptop (never "synced" offline)', () => {
    const chip = statusChip({
      network: 'offline',
      sync: synced(),
      outbox: { ...clear, pending: 15, inFlight: 2 },
      nowMs: NOW,
    });
    expect(chip).toMatchObject({ tone: 'offline', text: 'Offline · 17 unsent', unsent: 17 });
    expect(chip.detail).toBe('Offline. 17 changes kept on this computer — they will be sent when the site answers.');
    expect(statusChip({ network: 'offline', sync: synced(), outbox: clear, nowMs: NOW }).text).toBe('Offline');
  });

  it('is red for what the technician must settle, before anything else', () => {
    const conflicts = statusChip({
      network: 'offline',
      sync: synced(),
      outbox: { ...clear, pending: 3, conflicts: 2 },
      nowMs: NOW,
    });
    expect(conflicts).toMatchObject({ tone: 'problem', text: '2 conflicts · 3 unsent' });
    // The state and the count apart, for the chip's two lines on a laptop.
    expect(conflicts).toMatchObject({ lead: '2 conflicts', tail: '3 unsent' });
    expect(statusChip({ network: 'online', sync: synced(), outbox: { ...clear, failed: 1 }, nowMs: NOW }).tone).toBe(
      'problem',
    );
    // A refused change is not hidden behind the conflicts: the chip said "2 conflicts · 1 unsent" beside it.
    const both = statusChip({
      network: 'online',
      sync: synced(),
      outbox: { ...clear, pending: 1, conflicts: 2, failed: 1 },
      nowMs: NOW,
    });
    expect(both).toMatchObject({ text: '2 conflicts, 1 failed · 1 unsent', lead: '2 conflicts, 1 failed' });
    expect(both.detail).toBe(
      '2 conflicts to settle in the sync centre; 1 change could not be sent; 1 change not sent yet.',
    );
  });

  it('says work going out beside a conflict as being sent, not as unsent', () => {
    const outbox = { ...clear, pending: 12, inFlight: 1, conflicts: 1 };
    const chip = statusChip({ network: 'online', sync: synced(), outbox, nowMs: NOW });
    expect(chip).toMatchObject({ text: '1 conflict · sending 13…', lead: '1 conflict', tail: 'sending 13…' });
    expect(chip.detail).toBe('1 conflict to settle in the sync centre; 13 changes being sent.');
    // Waiting between tries, or offline: unsent.
    const waiting = statusChip({ network: 'online', sync: synced(), outbox: { ...outbox, inFlight: 0 }, nowMs: NOW });
    expect(waiting.text).toBe('1 conflict · 12 unsent');
    expect(statusChip({ network: 'offline', sync: synced(), outbox, nowMs: NOW }).text).toBe('1 conflict · 13 unsent');
  });

  it("counts the current technician's work, and says the other technicians' apart", () => {
    const others = [{ key: 'demo|3', username: 'Sam Okafor', unsent: 5, conflicts: 0, signIn: 'signed_out' as const }];
    const chip = statusChip({
      network: 'offline',
      sync: synced(),
      outbox: { ...clear, pending: 2, others },
      nowMs: NOW,
    });
    expect(chip).toMatchObject({ tone: 'offline', text: 'Offline · 2 unsent', unsent: 2, othersUnsent: 5 });
    expect(chip.detail).toBe(
      'Offline. 2 changes kept on this computer — they will be sent when the site answers. ' +
        'Apart from yours, 5 changes of other technicians wait on this computer.',
    );
    expect(statusChip({ network: 'online', sync: synced(), outbox: { ...clear, others }, nowMs: NOW })).toMatchObject({
      tone: 'ok',
      unsent: 0,
      othersUnsent: 5,
    });
  });

  it('shows a sync in progress and sending, and a failed sync', () => {
    const running = synced({
      running: true,
      progress: { phase: 'media', done: 1, total: 4, bytes: 10, message: null },
    });
    expect(statusChip({ network: 'online', sync: running, outbox: clear, nowMs: NOW }).text).toBe('Syncing 25%');
    expect(
      statusChip({ network: 'online', sync: synced(), outbox: { ...clear, pending: 2 }, nowMs: NOW }),
    ).toMatchObject({ text: 'Sending 2…', tail: null });
    // Every change waiting for another try after one that did not go through: said so, not "sending".
    const retrying = { ...clear, pending: 2, retrying: 2 };
    expect(statusChip({ network: 'online', sync: synced(), outbox: retrying, nowMs: NOW })).toMatchObject({
      text: '2 waiting',
      tone: 'busy',
      detail:
        '2 changes wait for another try: the last one did not go through (the sync centre says why). Nothing is lost.',
    });
    // One waits for its next try and the others behind it, nothing out and nothing due: waiting too.
    const behind = { ...clear, pending: 4, retrying: 1, nextTryAt: NOW + 20_000 };
    expect(statusChip({ network: 'online', sync: synced(), outbox: behind, nowMs: NOW }).text).toBe('4 waiting');
    // One still being sent, or one not tried yet: sending.
    const oneSending = { ...clear, pending: 2, retrying: 1 };
    expect(statusChip({ network: 'online', sync: synced(), outbox: oneSending, nowMs: NOW }).text).toBe('Sending 2…');
    const inFlight = { ...clear, pending: 1, retrying: 1, inFlight: 1 };
    expect(statusChip({ network: 'online', sync: synced(), outbox: inFlight, nowMs: NOW }).text).toBe('Sending 2…');
    const failed = synced({ lastError: { message: 'The site answered 500.', resource: null, at: NOW / 1000 } });
    expect(statusChip({ network: 'online', sync: failed, outbox: clear, nowMs: NOW }).tone).toBe('problem');
  });

  it("says a sync that went on past a guide it could not store finished, and ends the site's words", () => {
    // "Last sync failed … The last sync stopped" beside the sync centre's "Finished, with problems listed below".
    const error = { message: 'Internal error reading guide', resource: '/guides/2', at: NOW / 1000 };
    const guide = { guideid: 2, title: 'Drive belt', message: error.message, resource: error.resource, attempts: 1 };
    const partly = synced({
      lastError: error,
      failedGuides: [{ ...guide, failedAt: NOW / 1000, nextAttemptAt: null }],
    });
    const chip = statusChip({ network: 'online', sync: partly, outbox: clear, nowMs: NOW });
    expect([chip.tone, chip.text]).toEqual(['ok', 'Synced 1 minute ago']);
    expect(chip.detail).toBe(
      'Online. Synced 1 minute ago; everything you did has reached the site. 1 guide could not be stored: ' +
        'the sync centre says which and why.',
    );
    // Stopped on it (the listing, say): a sentence of its own before the next.
    const stopped = statusChip({ network: 'online', sync: synced({ lastError: error }), outbox: clear, nowMs: NOW });
    expect([stopped.tone, stopped.text]).toEqual(['problem', 'Last sync failed']);
    expect(stopped.detail).toBe(
      'The last sync stopped: Internal error reading guide. Everything you did has reached the site.',
    );
  });

  it('says a sync that went on past a picture finished, naming the problem (it said "Last sync failed")', () => {
    const error = { message: 'A media file could not be downloaded: 404', resource: 'GET /x.standard', at: 1 };
    const chip = statusChip({
      network: 'online',
      sync: synced({ lastError: { ...error, wentOn: true } }),
      outbox: clear,
      nowMs: NOW,
    });
    expect([chip.tone, chip.text]).toEqual(['ok', 'Synced 1 minute ago']);
    expect(chip.detail).toContain('The last sync finished with a problem: A media file could not be downloaded: 404.');
  });

  it('does not announce a ticking clock to a screen reader', () => {
    const a = statusChip({ network: 'online', sync: synced(), outbox: clear, nowMs: NOW });
    const b = statusChip({ network: 'online', sync: synced(), outbox: clear, nowMs: NOW + 10 * 60_000 });
    expect(a.text).not.toBe(b.text);
    expect(a.announce).toBe(b.announce);
  });
});

describe('sync figures in words', () => {
  it('separates the parts instead of running them together', () => {
    expect(progressCounts({ phase: 'listing', done: 0, total: 0, bytes: 732_160, message: null }, true)).toBe(
      'Counting… · 715 KB downloaded',
    );
    expect(progressCounts({ phase: 'media', done: 12, total: 40, bytes: 3_250_000, message: null }, true)).toBe(
      '12 of 40 files · 3.1 MB downloaded',
    );
    expect(progressCounts({ phase: 'idle', done: 0, total: 0, bytes: 0, message: null }, false)).toBe('');
  });
});
