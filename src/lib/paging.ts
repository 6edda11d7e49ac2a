/** The page numbers that hold rows `start` to `end` (inclusive), for a list fetched `pageSize` rows at a time. */
export function pagesCovering(start: number, end: number, pageSize: number): number[] {
  if (end < start || pageSize <= 0) return [];
  const first = Math.floor(Math.max(0, start) / pageSize);
  const last = Math.floor(Math.max(0, end) / pageSize);
  const pages: number[] = [];
  for (let page = first; page <= last; page++) pages.push(page);
  return pages;
}
