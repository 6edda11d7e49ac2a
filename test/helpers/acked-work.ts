import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import type { AppApi, Result } from '../../electron/contract.ts';
import { sampleValue } from './worklog.ts';

/** A call the app answered with success: an action queued, and the value saved with it. */
export interface Ack {
  sessionId: string;
  kind: 'start' | 'stepData' | 'pause' | 'resume';
  fieldGuid?: string;
  value?: string | null;
}

const must = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

/**
 * A technician's offline work, as the damage tests queue it: per session a start, a value, a pause, a
 * resume and a value of another step (no two saves of one step in a row, so none coalesce), yielded as
 * each call is answered.
 */
export async function* ackedCalls(api: AppApi, guideid: number, sessions: number): AsyncGenerator<Ack> {
  const guide = must(await api.getGuide(guideid));
  const fields = guide.steps.flatMap((step) =>
    (step.form?.fields ?? [])
      .filter((field) => sampleValue(field) !== null)
      .map((field) => ({ field, stepid: step.stepid })),
  );
  const steps = [...new Set(fields.map((f) => f.stepid))];
  if (steps.length < 2) throw new Error('the guide needs forms on two steps');
  const onStep = (index: number) => fields.filter((f) => f.stepid === steps[index % steps.length]);
  for (let i = 0; i < sessions; i++) {
    const session = must(await api.startSession({ guideid, workorderid: `ACKED-${i}` }));
    yield { sessionId: session.id, kind: 'start' };
    for (const [turn, index] of [i, i + 1].entries()) {
      const choices = onStep(index);
      const { field, stepid } = choices[i % choices.length]!;
      const value = sampleValue(field, i);
      must(await api.saveStepData({ sessionId: session.id, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }));
      yield { sessionId: session.id, kind: 'stepData', fieldGuid: field.fieldGuid, value };
      if (turn === 0) {
        for (const transition of ['pause', 'resume'] as const) {
          must(await api.transitionSession({ sessionId: session.id, transition }));
          yield { sessionId: session.id, kind: transition };
        }
      }
    }
  }
}

/** Runs work-child.ts on a data folder, and SIGKILLs it once all its work is acknowledged (told it is saved). */
export function queueAndKill(dataDir: string, guideid: number, sessions: number): Promise<Ack[]> {
  const child = path.resolve(import.meta.dirname, 'work-child.ts');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dataDir, String(guideid), String(sessions)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Ack[] = [];
    let [buffered, stderr, killed] = ['', '', false];
    const guard = setTimeout(() => proc.kill('SIGKILL'), 120_000);
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('ack ')) acks.push(JSON.parse(line.slice(4)) as Ack);
        if (line === 'queued' && !killed) {
          killed = true;
          proc.kill('SIGKILL');
        }
      }
    });
    proc.on('error', reject);
    proc.on('exit', () => {
      clearTimeout(guard);
      if (killed) resolve(acks);
      else reject(new Error(`the work child ended before queueing everything: ${stderr}`));
    });
  });
}

/** What the app holds of acknowledged work, against what it acknowledged: actions by session in order, and values. */
export async function lostOf(
  api: AppApi,
  acks: Ack[],
): Promise<{ actions: string[]; values: string[]; extra: string[] }> {
  const actions = must(await api.getOutbox()).actions;
  const held = new Map<string, string[]>();
  for (const action of actions) held.set(action.sessionId, [...(held.get(action.sessionId) ?? []), action.kind]);
  const expected = new Map<string, string[]>();
  for (const ack of acks) expected.set(ack.sessionId, [...(expected.get(ack.sessionId) ?? []), ack.kind]);
  const lost = { actions: [] as string[], values: [] as string[], extra: [] as string[] };
  for (const [sessionId, kinds] of expected) {
    const have = held.get(sessionId) ?? [];
    const missing = kinds.filter((kind, i) => have[i] !== kind);
    if (missing.length > 0 || have.length !== kinds.length)
      lost.actions.push(`${sessionId}: ${kinds.join(',')} held as ${have.join(',') || 'nothing'}`);
  }
  for (const sessionId of held.keys()) if (!expected.has(sessionId)) lost.extra.push(sessionId);
  for (const ack of acks.filter((a) => a.kind === 'stepData')) {
    const session = await api.getSession(ack.sessionId);
    const value = session.ok ? session.value.values.find((v) => v.fieldGuid === ack.fieldGuid)?.value : undefined;
    if (value !== ack.value)
      lost.values.push(
        `${ack.sessionId} ${ack.fieldGuid}: ${JSON.stringify(ack.value)} held as ${JSON.stringify(value)}`,
      );
  }
  return lost;
}

/** Nothing the app acknowledged is missing or changed, and nothing was added. */
export async function expectNothingLost(api: AppApi, acks: Ack[], label: string): Promise<void> {
  expect(await lostOf(api, acks), label).toEqual({ actions: [], values: [], extra: [] });
}
