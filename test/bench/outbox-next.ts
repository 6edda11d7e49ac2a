// The outbox's next actions with a long queue waiting, in a process of its own: what the replay reads
// after each answer (OutboxRepo.due), with 30,000 actions of 5,000 sessions queued (a week of a shared
// laptop off the network), against the same with 30 actions of 5 sessions. Prints JSON.
import { performance } from 'node:perf_hooks';
import { CHAINS_AT_ONCE } from '../../electron/core/outbox/runner.ts';
import { TRANSITION_ACTIONS } from '../../electron/core/worklog/replay/transition.ts';
import { openTestStore } from '../helpers/store.ts';
import { makeTempDir } from '../helpers/tmp.ts';

const ACTIONS_PER_SESSION = 6;
const CALLS = 300;

/** ms per call of `due` for one free place, the other chains at once being sent, over CALLS calls. */
function dueCost(sessions: number): { p50: number; p95: number } {
  const tmp = makeTempDir('bench-outbox-next');
  const store = openTestStore(tmp.dir);
  try {
    const technician = store.transaction(() => {
      const id = store.technicians.signedIn(
        'https://site.test',
        { userid: 1, username: 'Tech', uniqueUsername: null, privileges: [], imageUrl: null },
        null,
        1,
      );
      for (let session = 0; session < sessions; session++)
        for (let action = 0; action < ACTIONS_PER_SESSION; action++) {
          const chain = `session-${session}`;
          store.outbox.add(
            TRANSITION_ACTIONS.pause,
            { sessionId: chain },
            { chain, actedAt: 1, now: 1, technician: id },
          );
        }
      return id;
    });
    const busy = Array.from({ length: Math.min(sessions - 1, CHAINS_AT_ONCE - 1) }, (_, i) => `session-${i}`);
    const times: number[] = [];
    for (let call = 0; call < CALLS + 50; call++) {
      const t = performance.now();
      if (store.outbox.due(Date.now(), 1, [technician], busy).length !== 1) throw new Error('no next action');
      if (call >= 50) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(CALLS / 2)]!, p95: times[Math.floor(CALLS * 0.95)]! };
  } finally {
    store.close();
    tmp.remove();
  }
}

console.log(JSON.stringify({ long: dueCost(5000), short: dueCost(5), calls: CALLS }));
