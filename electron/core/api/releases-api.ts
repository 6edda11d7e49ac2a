import type { ReleaseNote } from '../../contract.ts';
import type { ApiTransport } from './transport.ts';
import { releaseListWire } from './wire/release.ts';

/**
 * The release notes of a guide (Dozuki's `GET /guides/{guideid}/releases`), as published: notes keep the
 * site's text (the changes service shows them as plain text). A site without releases (iFixit's API)
 * answers 404, which the caller takes as "not offered".
 */
export async function fetchGuideReleases(
  transport: ApiTransport,
  guideid: number,
  signal?: AbortSignal,
): Promise<ReleaseNote[]> {
  const list = await transport.request('GET', `/guides/${guideid}/releases`, {
    schema: releaseListWire,
    ...(signal ? { signal } : {}),
  });
  return list
    .filter((release) => release.status !== 'removed' && (release.guideid == null || release.guideid === guideid))
    .map((release) => ({
      releaseid: release.releaseid,
      revisionid: release.revisionid,
      title: release.title ?? '',
      notes: release.notes ?? '',
      releasedAt: release.release_date ?? release.init_date ?? null,
      by: release.user?.username ?? null,
    }));
}
