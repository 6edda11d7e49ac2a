import type { UserSummary } from '../../contract.ts';
import type { ApiTransport } from './transport.ts';
import { tokenWire, userWire, type UserWire } from './wire/user.ts';

export function toUserSummary(wire: UserWire): UserSummary {
  return {
    userid: wire.userid,
    username: wire.username,
    uniqueUsername: wire.unique_username ?? null,
    privileges: wire.privileges ?? [],
    imageUrl: wire.image?.thumbnail ?? wire.image?.original ?? null,
  };
}

export async function requestToken(
  transport: ApiTransport,
  email: string,
  password: string,
  signal?: AbortSignal,
): Promise<{ token: string; user: UserSummary }> {
  const answer = await transport.request('POST', '/user/token', {
    json: { email, password },
    schema: tokenWire,
    ...(signal ? { signal } : {}),
  });
  return { token: answer.authToken, user: toUserSummary(answer) };
}

export async function fetchCurrentUser(transport: ApiTransport, signal?: AbortSignal): Promise<UserSummary> {
  return toUserSummary(await transport.request('GET', '/user', { schema: userWire, ...(signal ? { signal } : {}) }));
}

export async function revokeToken(transport: ApiTransport): Promise<void> {
  await transport.request('DELETE', '/user/token');
}
