import type { SignOff, SignOffInput, StepFormField } from '../../contract.ts';
import { AppFailure } from '../result.ts';

// The sign-off of a finished session (issue 28). It goes to the site as a step-data value when the
// guide's form has a field for it ("Signed off by", "Signature", "Inspector"): stored with the work-log
// entry, sent with the technician's own credentials along the session's chain, before the finish. A
// comment would be public to every reader of the guide and is tied to the guide, not to the entry, so it
// is not used. A guide with no such field keeps the sign-off on this laptop, in the report.

const normal = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Checks what the technician gave and makes the record; the name is the sign-in's, never what was typed. */
export function makeSignOff(
  input: SignOffInput,
  name: string,
  at: number,
  target: { field: StepFormField } | null,
): SignOff {
  if (input.how === 'typed' && normal(input.typed ?? '') !== normal(name))
    throw new AppFailure('invalid_input', `To sign off, type your name as you signed in: ${name}.`);
  if (input.how === 'drawn' && !input.drawingPng)
    throw new AppFailure('invalid_input', 'Draw your signature to sign off.');
  return {
    name,
    how: input.how,
    typed: input.how === 'typed' ? (input.typed ?? '').trim() : null,
    drawingPng: input.how === 'drawn' ? input.drawingPng! : null,
    at,
    sentAs: target ? 'step-data' : 'kept-here',
    field: target ? target.field.label : null,
  };
}

/** The value a sign-off field receives: who, how and when (UTC: the site shows it to anyone). */
export function signOffText(signOff: SignOff): string {
  const when = new Date(signOff.at * 1000)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
  const how = signOff.how === 'typed' ? 'confirmed by typing their name' : 'signed by hand in Fieldguide';
  return `Signed off by ${signOff.name} (${how}) at ${when}`;
}
