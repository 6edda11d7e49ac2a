import { conflict, invalid, missingField } from './errors.ts';

/**
 * Optimistic concurrency (reference §9, DESIGN.md §7): `?revisionid=` must be present (422 missing_field)
 * and equal the current one (409 with the current resource, built only when needed).
 */
export function checkRevision(
  value: string | undefined,
  current: number,
  currentBody: () => unknown,
  required = true,
): void {
  if (value === undefined || value === '') {
    if (required) throw missingField('revisionid');
    return;
  }
  if (!/^\d+$/.test(value)) throw invalid('revisionid', 'invalid_value', 'revisionid must be a whole number');
  if (Number(value) !== current) throw conflict(currentBody());
}
