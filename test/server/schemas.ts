import { z } from 'zod';

/** Wire shapes the server must answer with, written from the reference (not from the server's code). */

export const errorBody = z.object({
  message: z.string().min(1),
  errors: z
    .array(z.object({ field: z.string().optional(), code: z.string().optional(), message: z.string() }))
    .optional(),
});

export const image = z.object({ id: z.number().int() }).loose();

/** Reference 2.3. */
export const user = z.object({
  userid: z.number().int(),
  username: z.string(),
  unique_username: z.string().nullable(),
  join_date: z.number().int().nullable(),
  image: image.nullable(),
  reputation: z.number().int(),
  url: z.string().url(),
  teams: z.array(z.number().int()),
  privileges: z.array(z.enum(['Admin', 'Author', 'Moderator', 'User'])),
});

/** In team-member and user lists. */
export const listedUser = user.extend({ enabled: z.boolean(), banned: z.number().int().nullable() });

export const token = user.extend({ authToken: z.string().regex(/^[0-9a-f]{64}$/) });

/** Reference 2.1: the paged search-style object around `results`. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    limit: z.number().int(),
    offset: z.number().int(),
    totalResults: z.number().int(),
    moreResults: z.boolean(),
    search: z.string(),
    results: z.array(item),
  });

/** Reference 2.4, team summary. */
export const teamSummary = z.object({
  teamid: z.number().int(),
  name: z.string(),
  description: z.string(),
  owner: z.number().int(),
  reputation: z.number().int(),
  member_count: z.number().int(),
  image: image.nullable(),
  avatarUrl: z.string().optional(),
});

/** Reference 2.4, the team inside an approval stage. */
export const stageTeam = teamSummary.omit({ avatarUrl: true }).extend({ new_member_since: z.number().int() });

/** Reference 2.12. */
export const viewRecord = z.object({
  userid: z.number().int(),
  username: z.string(),
  doc_type: z.enum(['GUIDE', 'WIKI']),
  docid: z.string(),
  date: z.number().int(),
});

export const flag = z.object({ flagid: z.string(), image: z.string().url(), title: z.string(), text: z.string() });

const stage = z.union([
  z.object({ approval_process_stageid: z.number().int(), user: listedUser, is_satisfiable: z.boolean() }).strict(),
  z
    .object({
      approval_process_stageid: z.number().int(),
      team: stageTeam,
      num_required: z.number().int(),
      is_satisfiable: z.boolean(),
    })
    .strict(),
]);

/** Reference 2.5 as list, search and candidates answer it. */
export const processSummary = z.object({
  approval_processid: z.number().int(),
  name: z.string(),
  allow_repeated_signatures: z.boolean(),
  status: z.string(),
  stages: z.array(stage).min(1).max(10),
  is_satisfiable: z.boolean(),
  is_default: z.boolean(),
  num_guides: z.number().int(),
  num_requests: z.number().int(),
});

const signature = z.object({
  approval_request_stage_signatureid: z.number().int(),
  user: listedUser,
  status: z.string(),
  sign_date: z.number().int(),
  notes: z.string(),
});

/** Reference 2.6. */
export const approvalRequest = z.object({
  approval_requestid: z.number().int(),
  release: z.object({
    releaseid: z.number().int(),
    guideid: z.number().int(),
    langid: z.string(),
    revisionid: z.number().int(),
    user: listedUser,
    status: z.string(),
    title: z.string(),
    init_date: z.number().int(),
    release_date: z.number().int().nullable(),
    notes: z.string(),
    type: z.string(),
    href: z.string(),
    version: z.string().nullable(),
  }),
  guide: z.object({ guideid: z.number().int(), title: z.string(), langid: z.string(), img_src: z.string().nullable() }),
  process: processSummary,
  status: z.string(),
  stages: z.array(
    z.object({
      approval_process_stageid: z.number().int(),
      user: listedUser.nullable(),
      status: z.string(),
      signatures: z.array(signature),
      approved: z.boolean(),
      rejected: z.boolean(),
    }),
  ),
  init_date: z.number().int(),
  end_date: z.number().int().nullable(),
  href: z.string(),
});

export const processDetail = processSummary.extend({
  webhooks_enabled: z.boolean().nullable(),
  guides: z.array(z.object({ guideid: z.number().int(), langid: z.string() })),
  requests: z.array(approvalRequest),
});

/** Reference 2.8, the fields seen on a wiki detail. */
export const wikiDetail = z.object({
  url: z.string().url(),
  fullUrl: z.string().url(),
  editUrl: z.string().url(),
  wikiid: z.number().int(),
  langid: z.string(),
  namespace: z.enum(['CATEGORY', 'ITEM', 'TEAM', 'USER', 'INFO', 'WIKI']),
  title: z.string(),
  revisionid: z.number().int(),
  contents_raw: z.string(),
  // Seen on real sites; the category detail of this server does not carry it yet.
  contents_json: z.object({ type: z.string(), content: z.array(z.unknown()) }).optional(),
  contents_rendered: z.string(),
  can_edit: z.boolean(),
  author: z.array(z.unknown()),
  flags: z.array(z.unknown()),
  image: image.nullable(),
  documents: z.array(z.unknown()),
  display_title: z.string(),
  ancestors: z.array(z.unknown()),
  description: z.string(),
  children: z.array(z.unknown()),
  category_lists: z.array(z.unknown()),
  featured_guides: z.array(z.unknown()),
  guides: z.array(z.unknown()),
  favorited_guide_ids: z.array(z.number().int()),
  related_wikis: z.array(z.unknown()),
  repairability_score: z.number().nullable(),
  category_info: z.array(z.unknown()),
  source_revisionid: z.number().int().nullable(),
  info: z.array(z.unknown()),
});

/** Reference 2.7. */
export const workspace = z.object({
  workspaceRevisionid: z.number().int(),
  wikiid: z.number().int(),
  status: z.string(),
  privacyStatus: z.enum(['public', 'private']),
  wiki: wikiDetail,
  user: listedUser,
});
