import { z } from 'zod';
import type { AppApi, AppMethod } from '../contract.ts';

const required = (what: string) => z.string({ error: `${what} is required` }).trim().min(1, `${what} is required`);

/**
 * The arguments of every App API method as a zod tuple: the renderer is not trusted, so services.ts
 * checks what arrives before any method runs. Keyed by method, so a method without a schema is a type error.
 */
export const methodInputs: { [K in AppMethod]: z.ZodType<Parameters<AppApi[K]>> } = {
  getStatus: z.tuple([]),
  connectDemo: z.tuple([]),
  connectWithToken: z.tuple([
    z.object({ siteUrl: required('Site address'), token: required('API token').max(4096) }),
  ]),
  signIn: z.tuple([
    z.object({
      siteUrl: required('Site address'),
      email: required('E-mail').max(320),
      password: z.string().min(1, 'Password is required').max(4096),
    }),
  ]),
  signOut: z.tuple([]),
};
