import type { RouteModule } from '../http/env.ts';
import { approvalsRoutes } from './approvals.ts';
import { authRoutes } from './auth.ts';
import { categoriesRoutes } from './categories.ts';
import { commentsRoutes } from './comments.ts';
import { demoChangeRoutes } from './demo-change.ts';
import { demoCodesRoutes } from './demo-codes.ts';
import { documentPagesRoutes } from './document-pages.ts';
import { guideMarksRoutes } from './guide-marks.ts';
import { guidesRoutes } from './guides.ts';
import { mediaRoutes } from './media.ts';
import { quizzesRoutes } from './quizzes.ts';
import { releasesRoutes } from './releases.ts';
import { searchRoutes } from './search.ts';
import { stepFormsRoutes } from './step-forms.ts';
import { suggestRoutes } from './suggest.ts';
import { tagsRoutes } from './tags.ts';
import { teamsRoutes } from './teams.ts';
import { userFlagsRoutes } from './user-flags.ts';
import { userGuidesRoutes } from './user-guides.ts';
import { userMediaRoutes } from './user-media.ts';
import { userImagesRoutes } from './user-images.ts';
import { usersRoutes } from './users.ts';
import { viewHistoryRoutes } from './view-history.ts';
import { workLogRoutes } from './work-log.ts';
import { workspacesRoutes } from './workspaces.ts';

/** Every route module of the API. One line per module. */
export const ROUTES: readonly RouteModule[] = [
  authRoutes,
  usersRoutes,
  userFlagsRoutes,
  teamsRoutes,
  viewHistoryRoutes,
  approvalsRoutes,
  workspacesRoutes,
  guidesRoutes,
  releasesRoutes,
  tagsRoutes,
  categoriesRoutes,
  mediaRoutes,
  documentPagesRoutes,
  demoCodesRoutes,
  demoChangeRoutes,
  searchRoutes,
  suggestRoutes,
  workLogRoutes,
  stepFormsRoutes,
  quizzesRoutes,
  guideMarksRoutes,
  userGuidesRoutes,
  commentsRoutes,
  userMediaRoutes,
  userImagesRoutes,
];
