import { z } from 'zod';
import { issueToken, requireUser, revokeToken, verifyPassword } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUserByEmail, userJson } from '../users/repo.ts';

const signIn = z.object({ email: z.string(), password: z.string() });

/** Sign in and out (public-shapes.md, Authentication) and the current user (reference 2.3). */
export const authRoutes: RouteModule = (api, ctx) => {
  api.post('/user/token', async (c) => {
    const { email, password } = await readBody(c, signIn);
    const user = getUserByEmail(ctx.db, email.trim());
    // The same answer for an unknown e-mail and a wrong password: no account probing.
    const valid = user ? await verifyPassword(password, user.password_hash) : false;
    if (!user || !valid || user.enabled !== 1 || user.banned !== null) throw unauthorized('Invalid login');
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
