import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../server/site.ts';
import { api, call, expectError, expectShape, signIn, startTestSite } from './helpers.ts';
import { errorBody } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: "the server's answers to what no client sends: unknown paths and methods, bad paging, broken JSON",
};

let site: RunningSite;
beforeAll(async () => {
  site = await startTestSite(UNCHECKED);
});
afterAll(() => site.close());

describe('the HTTP surface every endpoint shares', () => {
  it('serves the API under /api/2.0 of the site address', () => {
    expect(site.apiUrl).toBe(`${site.url}/api/2.0`);
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(site.port).toBeGreaterThan(0);
  });

  it('answers text that is not JSON with 400 and a message', async () => {
    const answer = await api(site, 'POST', '/user/token', {
      body: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(answer, 400);
    expect(answer.body.message).toBe('Invalid JSON in the request body');
  });

  it('answers a JSON body that is not an object with 422', async () => {
    expectError(await api(site, 'POST', '/user/token', { json: ['admin@demo.test'] }), 422, 'body');
  });

  it('answers 401 without a token and with an unknown one', async () => {
    const none = await api(site, 'GET', '/user');
    expectError(none, 401);
    expect(none.body).toEqual({ message: 'Authentication required' });
    expectError(await api(site, 'GET', '/user', { token: 'f'.repeat(64) }), 401);
    expectError(await api(site, 'GET', '/user', { headers: { Authorization: 'Bearer something' } }), 401);
  });

  it('answers 404 for a path no endpoint serves, under the API and outside it', async () => {
    expectError(await api(site, 'GET', '/no/such/thing'), 404);
    expectError(await call('GET', `${site.url}/elsewhere`), 404);
  });

  it('answers 405 with an Allow header for a known path and a method it does not take', async () => {
    const patch = await api(site, 'PATCH', '/user/token');
    expectError(patch, 405);
    expect(patch.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'POST']);
    const put = await api(site, 'PUT', '/users');
    expectError(put, 405);
    expect(put.headers.get('allow')).toContain('GET');
  });

  it('refuses limit outside 1..200, a negative offset and a bad order with 422 naming the parameter', async () => {
    for (const limit of ['0', '201', '-1', '2.5', 'ten']) {
      expectError(await api(site, 'GET', '/users', { query: { limit } }), 422, 'limit', 'invalid_value');
    }
    expectError(await api(site, 'GET', '/users', { query: { offset: -1 } }), 422, 'offset');
    expectError(await api(site, 'GET', '/users', { query: { order: 'sideways' } }), 422, 'order');
    expect((await api(site, 'GET', '/users', { query: { limit: 1 } })).status).toBe(200);
    expect((await api(site, 'GET', '/users', { query: { limit: 200 } })).status).toBe(200);
  });

  it('formats JSON for humans with ?pretty, errors included', async () => {
    const plain = await api(site, 'GET', '/users');
    const pretty = await api(site, 'GET', '/users', { query: { pretty: '' } });
    expect(plain.text).not.toContain('\n');
    expect(pretty.text).toContain('\n  {\n    "userid": 1,');
    expect(pretty.body).toEqual(plain.body);
    const prettyError = await api(site, 'GET', '/user', { query: { pretty: 1 } });
    expect(prettyError.status).toBe(401);
    expect(prettyError.text).toBe('{\n  "message": "Authentication required"\n}\n');
  });

  it('grants no CORS by default: a page of another site is refused, preflight or not', async () => {
    const preflight = await api(site, 'OPTIONS', '/user', {
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expectError(preflight, 403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await api(site, 'GET', '/users', { headers: { Origin: 'http://localhost:5173' } });
    expectError(simple, 403);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    // A page of the site itself, and clients that are not browsers (no Origin), are answered.
    expect((await api(site, 'GET', '/users', { headers: { Origin: site.url } })).status).toBe(200);
    expect((await api(site, 'GET', '/users')).status).toBe(200);
  });

  it('answers CORS preflights and marks answers readable for the origins it is given', async () => {
    const open = await startSite({ corsOrigins: ['http://localhost:5173'] });
    try {
      const preflight = await call('OPTIONS', `${open.apiUrl}/user`, {
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
      const simple = await call('GET', `${open.apiUrl}/users`, { headers: { Origin: 'http://localhost:5173' } });
      expect(simple.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expectError(await call('GET', `${open.apiUrl}/users`, { headers: { Origin: 'http://localhost:5174' } }), 403);
    } finally {
      await open.close();
    }
    const any = await startSite({ corsOrigins: ['*'] });
    try {
      const simple = await call('GET', `${any.apiUrl}/users`, { headers: { Origin: 'https://elsewhere.example' } });
      expect(simple.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await any.close();
    }
  });

  it('answers the Host names it is given besides its own, and any Host with *', async () => {
    const hostOf = async (port: number, host: string) => {
      return new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/2.0/guides?limit=1',
            agent: false,
            headers: { Host: host },
            setHost: false,
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject).end();
      });
    };
    expect(await hostOf(site.port, `evil.test:${site.port}`)).toBe(421);
    expect(await hostOf(site.port, `localhost:${site.port + 1}`)).toBe(200); // a proxy on this machine keeps its Host
    const named = await startSite({ allowedHosts: ['fieldguide.lan', 'docs.example:8443'] });
    try {
      expect(await hostOf(named.port, `fieldguide.lan:${named.port}`)).toBe(200);
      expect(await hostOf(named.port, 'docs.example:8443')).toBe(200);
      expect(await hostOf(named.port, `docs.example:${named.port}`)).toBe(421);
      expect(await hostOf(named.port, `127.0.0.1:${named.port}`)).toBe(200);
    } finally {
      await named.close();
    }
    const any = await startSite({ allowedHosts: '*' });
    try {
      expect(await hostOf(any.port, 'evil.test')).toBe(200);
    } finally {
      await any.close();
    }
  });

  it('gives every error body the shape of DESIGN.md section 7', async () => {
    const answers = await Promise.all([
      api(site, 'GET', '/nothing'),
      api(site, 'GET', '/user'),
      api(site, 'GET', '/users', { query: { limit: 0 } }),
      api(site, 'DELETE', '/users'),
    ]);
    for (const answer of answers) expectShape(errorBody, answer.body);
  });
});

describe('test hooks', () => {
  it('sets and releases the clock', async () => {
    const set = await call('POST', `${site.url}/__test/clock`, { json: { now: 1_800_000_000 } });
    expect(set.body).toEqual({ now: 1_800_000_000 });
    const tech = await signIn(site, 'tech1');
    const audit = await call('GET', `${site.url}/__test/audit`, { query: { entity: 'token' } });
    expect(audit.body.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/2.0/user/token',
      entity: 'token',
      userid: tech.userid,
      time: 1_800_000_000,
    });
    const released = await call('POST', `${site.url}/__test/clock`, { json: { now: null } });
    expect(Math.abs(released.body.now - Date.now() / 1000)).toBeLessThan(5);
    expectError(await call('POST', `${site.url}/__test/clock`, { json: { now: 'noon' } }), 422, 'now');
  });

  it('are plain 404s on a site started without them', async () => {
    const bare = await startSite();
    try {
      expectError(await call('GET', `${bare.url}/__test/audit`), 404);
      expectError(await call('POST', `${bare.url}/__test/clock`, { json: { now: 1 } }), 404);
    } finally {
      await bare.close();
    }
  });
});
