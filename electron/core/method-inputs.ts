import { z } from 'zod';
import type { AppApi, AppMethod } from '../contract.ts';
import { LIST_MAX, WORK_ORDER_MAX_CHARS } from '../shared/limits.ts';
import { pictureQualitySchema } from './library/picture-quality.ts';
import { offlineScopeSchema } from './library/scope.ts';

const required = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`);
const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const sessionId = z.string().uuid('not a session id');
/** An application id as a site issues it: printable, no spaces inside, sent in a header. */
const appId = z
  .string()
  .trim()
  .max(200, 'The application id is at most 200 characters')
  .regex(/^[\x21-\x7e]*$/, 'The application id is letters, digits and signs, without spaces')
  .optional();
const langid = z.string().regex(/^[a-z]{2}$/, 'a language code of two letters');
const pixels = z.number().int().min(1).max(100_000);

/**
 * The arguments of every App API method as a zod tuple: the renderer is not trusted, so invoke.ts
 * checks what arrives before any method runs. Keyed by method, so a method without a schema is a type error.
 */
export const methodInputs: { [K in AppMethod]: z.ZodType<Parameters<AppApi[K]>> } = {
  getStatus: z.tuple([]),
  connectDemo: z.tuple([]),
  connectWithToken: z.tuple([
    z.object({
      siteUrl: required('Site address'),
      token: required('API token').max(4096),
      allowInsecure: z.boolean().optional(),
      appId,
    }),
  ]),
  connectPublic: z.tuple([
    z.object({ siteUrl: required('Site address'), allowInsecure: z.boolean().optional(), appId }),
  ]),
  signIn: z.tuple([
    z.object({
      siteUrl: required('Site address'),
      email: required('E-mail').max(320),
      password: z.string().min(1, 'Password is required').max(4096),
      allowInsecure: z.boolean().optional(),
      appId,
    }),
  ]),
  cancelConnect: z.tuple([]),
  signOut: z.tuple([]),
  allowMediaOrigin: z.tuple([required('Address').max(2048)]),
  listTechnicians: z.tuple([]),
  switchTechnician: z.tuple([
    z.union([
      z
        .object({ email: required('E-mail').max(320), password: z.string().min(1, 'Password is required').max(4096) })
        .strict(),
      z.object({ token: required('API token').max(4096) }).strict(),
    ]),
  ]),

  listGuides: z.tuple([
    z.object({
      category: z.string().max(500).optional(),
      type: z.string().max(50).optional(),
      tag: z.string().max(200).optional(),
      offlineOnly: z.boolean().optional(),
      guideids: z.array(id).max(LIST_MAX).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(LIST_MAX).optional(),
    }),
  ]),
  getCategories: z.tuple([]),
  listTags: z.tuple([]),
  getGuide: z.union([z.tuple([id]), z.tuple([id, id])]),
  getGuideSummary: z.tuple([id]),
  getQuiz: z.tuple([id]),
  search: z.tuple([
    z.object({
      text: z.string().max(500),
      where: z.enum(['auto', 'local', 'site']).optional(),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).optional(),
    }),
  ]),
  getLanguages: z.tuple([]),
  setLanguage: z.tuple([langid.nullable()]),
  setDisplay: z.tuple([z.object({ width: pixels, height: pixels })]),
  syncNow: z.tuple([]),
  cancelSync: z.tuple([]),
  retryGuides: z.union([z.tuple([]), z.tuple([z.array(id).max(LIST_MAX)])]),
  getSyncState: z.tuple([]),
  setOfflineScope: z.tuple([offlineScopeSchema]),
  keepGuideOffline: z.tuple([id]),
  // Any positive size: too small a budget only fails the sync with its own message. The settings view
  // asks for at least 10 MB, a floor for people, not for the core.
  setStorageBudget: z.tuple([
    z
      .number()
      .int()
      .min(1, 'The budget must be a positive number of bytes')
      .max(2 ** 50),
  ]),
  getPictureQuality: z.tuple([]),
  setPictureQuality: z.tuple([pictureQualitySchema]),

  startSession: z.tuple([
    z.object({ guideid: id, workorderid: required('Work order').max(WORK_ORDER_MAX_CHARS), stepid: id.optional() }),
  ]),
  transitionSession: z.tuple([
    z.object({
      sessionId: sessionId,
      transition: z.enum(['pause', 'resume', 'suspend', 'assume', 'finish', 'cancel']),
    }),
  ]),
  saveStepData: z.tuple([
    z.object({
      sessionId,
      stepid: id,
      values: z
        .array(z.object({ fieldGuid: z.string().min(1).max(200), value: z.string().max(100_000).nullable() }))
        .min(1)
        .max(200),
    }),
  ]),
  attachFile: z.tuple([
    z.object({
      sessionId,
      stepid: id,
      fieldGuid: z.string().min(1).max(200),
      name: required('File name').max(255),
      mime: z.string().min(1).max(200),
      // 200 MB of bytes is about 267 MB of base64.
      dataBase64: z
        .string()
        .min(1)
        .max(280 * 1024 * 1024)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
    }),
  ]),
  listSessions: z.tuple([z.object({ guideid: id.optional() })]),
  getSession: z.tuple([sessionId]),
  getAttachment: z.tuple([z.string().uuid('not an attachment id')]),
  listSuspended: z.tuple([id]),
  assumeSession: z.tuple([id]),
  openSession: z.tuple([id]),
  getOutbox: z.tuple([]),
  flushOutbox: z.tuple([]),
  retryAction: z.tuple([id]),
  discardAction: z.tuple([id]),
  listConflicts: z.tuple([]),
  settleConflict: z.tuple([z.object({ conflictId: id, keep: z.enum(['mine', 'theirs']) })]),
  submitQuizAttempt: z.tuple([
    z.object({
      quizRevisionid: id,
      answers: z
        .record(z.string().max(200), z.unknown())
        .refine((a) => JSON.stringify(a).length <= 200_000, 'answers are too large'),
      startedAt: z.number().int().nonnegative(),
      courseStageid: id.optional(),
    }),
  ]),
  listQuizAttempts: z.tuple([z.object({ quizid: id.optional() })]),
  listQuizzes: z.tuple([]),
};
