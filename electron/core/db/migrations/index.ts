import type Database from 'better-sqlite3';
import { up as settings } from './0001-settings.ts';
import { up as library } from './0002-library.ts';
import { up as worklog } from './0003-worklog.ts';
import { up as quizzes } from './0004-quizzes.ts';
import { up as mediaByFile } from './0005-media-by-file.ts';
import { up as mediaRefsByQuality } from './0006-media-refs-by-quality.ts';
import { up as technicians } from './0007-technicians.ts';
import { up as siteModules } from './0008-site-modules.ts';
import { up as libraryAtScale } from './0009-library-at-scale.ts';
import { up as mediaOrder } from './0010-media-order.ts';
import { up as searchPrefixes } from './0011-search-prefixes.ts';
import { up as prerequisites } from './0012-prerequisites.ts';
import { up as translations } from './0013-translations.ts';
import { up as outboxAnswers } from './0014-outbox-answers.ts';
import { up as workJournal } from './0015-work-journal.ts';
import { up as signOff } from './0016-sign-off.ts';
import { up as guideMarks } from './0017-guide-marks.ts';
import { up as comments } from './0018-comments.ts';
import { up as guideReads } from './0019-guide-reads.ts';
import { up as guideReleases } from './0020-guide-releases.ts';
import { up as mediaToShow } from './0021-media-to-show.ts';
import { up as conflictFiles } from './0022-conflict-files.ts';
import { up as takenFrom } from './0023-taken-from.ts';
import { up as searchPartsTools } from './0024-search-parts-tools.ts';
import { up as ranUnwatched } from './0025-ran-unwatched.ts';
import { up as removedOnSite } from './0026-removed-on-site.ts';
import { up as handedBack } from './0027-handed-back.ts';
import { up as stateFromSite } from './0028-state-from-site.ts';
import { up as changedElsewhere } from './0029-changed-elsewhere.ts';
import { up as siteGuideRevision } from './0030-site-guide-revision.ts';
import { up as picture } from './pictures/0001-picture.ts';

export interface Migration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

/** Ordered; version N is at index N-1. Never edit a migration that has shipped: add the next one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'settings', up: settings },
  { version: 2, name: 'library', up: library },
  { version: 3, name: 'worklog', up: worklog },
  { version: 4, name: 'quizzes', up: quizzes },
  { version: 5, name: 'media by file', up: mediaByFile },
  { version: 6, name: 'media refs by picture quality', up: mediaRefsByQuality },
  { version: 7, name: 'technicians', up: technicians },
  { version: 8, name: 'site modules and failed guides', up: siteModules },
  { version: 9, name: 'library at scale', up: libraryAtScale },
  { version: 10, name: 'media order', up: mediaOrder },
  { version: 11, name: 'search prefixes', up: searchPrefixes },
  { version: 12, name: 'prerequisites and dialects', up: prerequisites },
  { version: 13, name: 'translations', up: translations },
  { version: 14, name: 'outbox answers and notices', up: outboxAnswers },
  { version: 15, name: 'work journal and row checksums', up: workJournal },
  { version: 16, name: 'sign-off of a session', up: signOff },
  { version: 17, name: 'favourites, completions and opened guides', up: guideMarks },
  { version: 18, name: 'comments written here', up: comments },
  { version: 19, name: 'the revision each technician last read', up: guideReads },
  { version: 20, name: 'release notes of changed guides', up: guideReleases },
  { version: 21, name: 'media the views show, apart from zoom variants', up: mediaToShow },
  { version: 22, name: 'the file a conflict names', up: conflictFiles },
  { version: 23, name: 'whom a session was taken over from', up: takenFrom },
  { version: 24, name: 'parts and tools in the search index', up: searchPartsTools },
  { version: 25, name: 'time a session ran while Fieldguide was closed', up: ranUnwatched },
  { version: 26, name: 'sessions removed on the site', up: removedOnSite },
  { version: 27, name: 'sessions handed back on the site', up: handedBack },
  { version: 28, name: 'sessions whose state came from the site', up: stateFromSite },
  { version: 29, name: 'values changed elsewhere since saved here', up: changedElsewhere },
  { version: 30, name: 'the guide revision the site keeps a session on', up: siteGuideRevision },
];

/** The attached pictures database has a version of its own (`pictures.user_version`). */
export const PICTURE_MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'picture', up: picture }];
