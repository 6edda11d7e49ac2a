import { z } from 'zod';
import {
  DUMMY_PASSWORD_HASH,
  issueToken,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  requireUser,
  revokeToken,
  verifyPassword,
} from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { invalid, unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { clientAddress } from '../http/sign-in-throttle.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUserByEmail, userJson } from '../users/repo.ts';

const signIn = z.object({ email: z.string(), password: z.string() });

/** Sign in and out (public-shapes.md, Authentication) and the current user (reference 2.3). */
export const authRoutes: RouteModule = (api, ctx) => {
  api.post('/user/token', async (c) => {
    const { email, password } = await readBody(c, signIn);
    if (password.length > MAX_PASSWORD_LENGTH) {
      throw invalid('password', 'too_long', `password: at most ${MAX_PASSWORD_LENGTH} characters`);
    }
    if (email.length > MAX_EMAIL_LENGTH)
      throw invalid('email', 'too_long', `email: at most ${MAX_EMAIL_LENGTH} characters`);
    // A 429 here, before any hashing, once the account or the address failed too often.
    const attempt = ctx.signInThrottle?.begin(email, clientAddress(c));
    const user = getUserByEmail(ctx.db, email.trim());
    // The same answer, after the same work, for an unknown e-mail and a wrong password: no account probing.
    ctx.counters.passwordChecks += 1;
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid || user.enabled !== 1 || user.banned !== null) throw unauthorized('Invalid login');
    attempt?.succeeded();
    const authToken = ctx.db.transaction(() => {
      recordMutation(ctx, c, 'token', user.userid, user.userid);
      return issueToken(ctx.db, user.userid, ctx.clock.now());
    })();
    return c.json({ authToken, ...userJson(ctx.db, user, siteOrigin(c)) }, 201);
  });

  api.delete('/user/token', (c) => {
    const user = requireUser(c);
    const token = c.get('token');
    if (token) {
      ctx.db.transaction(() => {
        revokeToken(ctx.db, token);
        recordMutation(ctx, c, 'token', user.userid);
      })();
    }
    return c.body(null, 204);
  });

  api.get('/user', (c) => c.json(userJson(ctx.db, requireUser(c), siteOrigin(c))));
};
