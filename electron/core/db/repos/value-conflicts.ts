import type { StepValue } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { FIELD_TYPE_ON_FORM } from './conflicts-repo.ts';

// What a session's values need to know of the site's forms and of their conflicts (sessions-repo.ts `view`).

/** The session's open field conflicts by field, the newest of each (StepValue.conflict). */
export function fieldConflicts(db: Db, id: string, guideid: number): Map<string, NonNullable<StepValue['conflict']>> {
  const rows = sql(
    db,
    `SELECT c.id, c.field_guid AS fieldGuid, c.theirs, c.message,
         (${FIELD_TYPE_ON_FORM('@guideid', 'c.field_guid')}) IS NULL AS offForm
       FROM conflicts c WHERE c.session_id = @id AND c.kind = 'field' AND c.settled IS NULL ORDER BY c.id`,
  ).all({ id, guideid }) as {
    id: number;
    fieldGuid: string;
    theirs: string | null;
    message: string;
    offForm: 0 | 1;
  }[];
  return new Map(rows.map(({ fieldGuid, offForm, ...rest }) => [fieldGuid, { ...rest, offForm: offForm === 1 }]));
}

/**
 * The session's fields that the guide's stored forms no longer have (a revision dropped them): a value there
 * is never sent, and stays here (replay/step-data.ts keepRemoved). None for a guide with no stored form.
 */
export function offFormFields(db: Db, id: string, guideid: number): Set<string> {
  const rows = sql(
    db,
    `SELECT v.field_guid AS fieldGuid FROM work_values v
       WHERE v.session_id = @id AND (${FIELD_TYPE_ON_FORM('@guideid', 'v.field_guid')}) IS NULL
         AND EXISTS (SELECT 1 FROM step_forms WHERE guideid = @guideid)`,
  ).all({ id, guideid }) as { fieldGuid: string }[];
  return new Set(rows.map((r) => r.fieldGuid));
}
