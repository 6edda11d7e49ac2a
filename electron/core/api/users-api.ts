import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';
import { userWire } from './wire/user.ts';

/**
 * A user's name on the site (`GET /users/{userid}`, reference 2.3): how a conflict names who took a session
 * over, and the Sessions list who handed one over. An answer about another user is refused, not shown: the
 * technician would be told the wrong person has the work (callers then say the user by number).
 */
export async function userName(t: ApiTransport, userid: number): Promise<string> {
  const user = await t.request('GET', `/users/${userid}`, { schema: userWire });
  if (user.userid === userid) return user.username;
  throw new ApiError(
    'bad_response',
    `GET /users/${userid}`,
    `The site answered for user ${userid} with user ${user.userid}: the name was not taken.`,
  );
}
