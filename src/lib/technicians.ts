import type { OthersWork, TechnicianEntry } from '../../electron/contract.ts';
import { plural } from './format.ts';

/** What waits for another technician, in words: how much, and what it waits for. */
export function othersWorkWords(other: Pick<OthersWork, 'unsent' | 'conflicts' | 'signIn' | 'username'>): string {
  const parts = [
    other.unsent > 0 ? `${plural(other.unsent, 'change')} not sent yet` : null,
    other.conflicts > 0 ? plural(other.conflicts, 'conflict') : null,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
  switch (other.signIn) {
    case 'kept':
      return `${parts}; sent under their name as soon as the site answers.`;
    case 'refused':
      return `${parts}; the site refused their sign-in, so it waits until they sign in again.`;
    default:
      return `${parts}; waiting for ${other.username} to sign in again.`;
  }
}

/** Initials for a technician's avatar (drawn here: no picture is fetched from the site). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((word) => [...word][0]!.toUpperCase()).join('') || '?';
}

/** A technician's line on the switch screen: how their sign-in stands and what of theirs waits. */
export function technicianStateWords(entry: TechnicianEntry): string {
  const state = entry.current
    ? 'Working now'
    : entry.signIn === 'kept'
      ? 'Signed in'
      : entry.signIn === 'refused'
        ? 'Sign in again: the site refused the sign-in'
        : 'Signed out';
  const work = entry.unsent > 0 ? `${plural(entry.unsent, 'change')} not sent yet` : 'nothing waiting';
  return `${state} · ${work}${entry.conflicts > 0 ? ` · ${plural(entry.conflicts, 'conflict')}` : ''}`;
}
