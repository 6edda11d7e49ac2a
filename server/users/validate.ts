import type { Db } from '../db/types.ts';
import { invalid } from '../http/errors.ts';
import { getUser } from './repo.ts';

/** 422 naming the field (`fieldOf(index)`, e.g. `members[1]`) of the first userid that names nobody. */
export function requireExistingUsers(db: Db, ids: readonly number[], fieldOf: (index: number) => string): void {
  ids.forEach((id, index) => {
    if (!getUser(db, id)) {
      const field = fieldOf(index);
      throw invalid(field, 'invalid_value', `${field}: no user has the id ${id}`);
    }
  });
}
