import type { RanUnwatched } from '../../electron/contract.ts';
import { formatSpan } from './format.ts';

/** The time a session counted while Fieldguide was closed, in all its stretches, in words ("27 h 55 min"). */
export function unwatchedSpan(ran: RanUnwatched): string {
  return formatSpan(ran.stretches.reduce((sum, { from, to }) => sum + (to - from), 0));
}
