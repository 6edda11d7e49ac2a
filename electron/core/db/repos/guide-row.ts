import type { GuideListItem } from '../../../contract.ts';

/** A row of `guides`, as the library list and the search read it. */
export interface GuideRow {
  guideid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  flags: string;
  image: string | null;
  modified_date: number;
  stored_revisionid: number | null;
}

export const listItemOf = (row: GuideRow): GuideListItem => ({
  guideid: row.guideid,
  title: row.title,
  category: row.category,
  subject: row.subject,
  type: row.type,
  image: row.image ? (JSON.parse(row.image) as GuideListItem['image']) : null,
  flags: JSON.parse(row.flags) as string[],
  modifiedDate: row.modified_date,
  offline: row.stored_revisionid === null ? 'summary' : 'full',
});
