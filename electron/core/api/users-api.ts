import type { ApiTransport } from './transport.ts';
import { userWire } from './wire/user.ts';

const name = userWire.transform((user) => user.username);

/** A user's name on the site (`GET /users/{userid}`, reference 2.3): how a conflict names who took a session over. */
export const userName = (t: ApiTransport, userid: number): Promise<string> =>
  t.request('GET', `/users/${userid}`, { schema: name });
