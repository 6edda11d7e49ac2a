import { z } from 'zod';

/** Wire shapes the server must answer with, written from the reference (not from the server's code). */

export const errorBody = z.object({
  message: z.string().min(1),
  errors: z.array(z.object({ field: z.string().optional(), code: z.string().optional(), message: z.string() })).optional(),
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
