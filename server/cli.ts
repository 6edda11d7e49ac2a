import { parseArgs } from 'node:util';
import { generateSite } from './generator/generator.ts';
import { setPictureCacheBudget } from './media/picture-cache.ts';
import { DEFAULT_SIGN_IN_THROTTLE } from './http/sign-in-throttle.ts';
import { PortUnavailableError } from './listen.ts';
import { parseModules, SITE_MODULES } from './http/site-modules.ts';
import { DEMO_APP_ID, DIALECTS, parseDialect } from './http/dialects.ts';
import { startDemoSite, startSite, type RunningSite } from './site.ts';
import { systemClock } from './context.ts';

/** How many ports after a taken --port are tried. */
const NEXT_FREE_PORTS = 20;

// The text's long lines are joined with +, so that no line of code passes 120 columns.
const USAGE =
  `Usage: npm run server -- [--port P [--strict-port]] [--host H] [--db FILE] ` +
  `[--demo [--demo-password PW] | --generate --guides N --steps M --images K --seed S] [--test-hooks] ` +
  `[--picture-cache-mb MB]
         [--cors-origin ORIGIN]... [--allowed-host NAME[:PORT]]... [--sign-in-limit N] [--sign-in-address-limit N]
         [--without MODULE,...] [--public | --members-only] [--media-origin] [--dialect DIALECT [--app-id ID]...]
         [--clock-offset S] [--slow-writes MS]
  --port P                    listen on P (default 0: any free port); when P is taken, the next free port ` +
  `up to P+${NEXT_FREE_PORTS} is used and said
  --strict-port               a taken port is an error instead
  --demo-password PW          the demo accounts' password instead of fieldguide ` +
  `(a site in --db that has another is changed)
  --cors-origin ORIGIN        let web pages of ORIGIN (https://app.example.com) call the API; ` +
  `repeat for more; * for any (default: none)
  --allowed-host NAME[:PORT]  answer to this Host besides localhost, 127.0.0.1, [::1] and --host; ` +
  `repeat for more; * for any
  --sign-in-limit N           failed sign-ins per account and client address a minute before 429
                              (default 10; 0 turns the throttle off)
  --sign-in-address-limit N   failed sign-ins per client address a minute before it is slowed to one guess per
                              account (default 50)
  --without MODULE,...        play a site without these modules (their endpoints answer 404): ${SITE_MODULES.join(', ')}
  --public                    guides and media readable without a token, as on iFixit (the default)
  --members-only              nothing but signing in answers without a token (401)
  --media-origin              media served from a second port, which guide JSON points at (a CDN on another origin)
  --dialect DIALECT           the dialect of API 2.0 it speaks: ${DIALECTS.join(' or ')} (default dozuki, the seed's);
                              ifixit answers as iFixit's OpenAPI description says: 50 guideids, prerequisite steps
                              inlined, {error, message} bodies, /suggest without /search, X-App-Id to sign in,
                              uploads on /user/media/images
  --app-id ID                 an application id an ifixit site takes at sign-in; repeat for more
                              (default ${DEMO_APP_ID})
  --clock-offset S            the site's clock runs S seconds off the machine's (negative: behind):
                              a node whose clock is wrong
  --slow-writes MS            starts (POST /work_log) and uploads wait MS before they are applied, then
                              are answered: a slow site`;

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`--${name} must be a whole number, got ${value}`);
  return number;
}

function seconds(value: string, name: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`--${name} must be a whole number of seconds, got ${value}`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'strict-port': { type: 'boolean', default: false },
      host: { type: 'string' },
      db: { type: 'string' },
      demo: { type: 'boolean', default: false },
      generate: { type: 'boolean', default: false },
      guides: { type: 'string' },
      steps: { type: 'string' },
      images: { type: 'string' },
      seed: { type: 'string' },
      'test-hooks': { type: 'boolean', default: false },
      'picture-cache-mb': { type: 'string' },
      'demo-password': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'sign-in-limit': { type: 'string' },
      'sign-in-address-limit': { type: 'string' },
      without: { type: 'string' },
      public: { type: 'boolean', default: false },
      'members-only': { type: 'boolean', default: false },
      'media-origin': { type: 'boolean', default: false },
      dialect: { type: 'string' },
      'app-id': { type: 'string', multiple: true },
      'clock-offset': { type: 'string' },
      'slow-writes': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values['picture-cache-mb'] !== undefined)
    setPictureCacheBudget(count(values['picture-cache-mb'], 'picture-cache-mb', 48) * 1024 * 1024);
  if (values.demo && values.generate) throw new Error('Choose one of --demo and --generate');
  if (values['demo-password'] !== undefined && !values.demo) throw new Error('--demo-password goes with --demo');
  if (values['demo-password'] === '') throw new Error('--demo-password must not be empty');
  const allowedHosts = values['allowed-host'] ?? [];
  const perAccount = count(values['sign-in-limit'], 'sign-in-limit', DEFAULT_SIGN_IN_THROTTLE.perAccount);
  const perAddress = count(
    values['sign-in-address-limit'],
    'sign-in-address-limit',
    DEFAULT_SIGN_IN_THROTTLE.perAddress,
  );
  if (perAddress === 0)
    throw new Error('--sign-in-address-limit must be at least 1 (--sign-in-limit 0 turns the throttle off)');
  const common = {
    port: count(values.port, 'port', 0),
    nextFreePort: values['strict-port'] ? 0 : NEXT_FREE_PORTS,
    ...(values.host ? { host: values.host } : {}),
    ...(values.db ? { dbFile: values.db } : {}),
    testHooks: values['test-hooks'],
    corsOrigins: values['cors-origin'] ?? [],
    allowedHosts: allowedHosts.includes('*') ? ('*' as const) : allowedHosts,
    signInThrottle: perAccount === 0 ? (false as const) : { perAccount, perAddress },
    without: parseModules(values.without ?? ''),
    publicReads: !values['members-only'],
    mediaOrigin: values['media-origin'],
    dialect: parseDialect(values.dialect),
    ...(values['app-id'] ? { appIds: values['app-id'] } : {}),
    ...(values['clock-offset'] === undefined
      ? {}
      : { clock: systemClock(seconds(values['clock-offset'], 'clock-offset')) }),
    ...(values['slow-writes'] === undefined
      ? {}
      : { slowWrites: { ms: count(values['slow-writes'], 'slow-writes', 0) } }),
  };
  if (values['app-id'] && common.dialect !== 'ifixit') throw new Error('--app-id goes with --dialect ifixit');
  if (values.public && values['members-only']) throw new Error('Choose one of --public and --members-only');

  let site: RunningSite;
  if (values.generate) {
    const options = {
      guides: count(values.guides, 'guides', 100),
      steps: count(values.steps, 'steps', 8),
      images: count(values.images, 'images', 2),
      seed: count(values.seed, 'seed', 1),
    };
    site = await startSite({ ...common, seed: (db) => generateSite(db, options) });
  } else if (values.demo) {
    site = await startDemoSite({
      ...common,
      ...(values['demo-password'] !== undefined ? { demoPassword: values['demo-password'] } : {}),
    });
  } else {
    site = await startSite(common);
  }

  if (common.port !== 0 && site.port !== common.port) {
    console.log(
      `Port ${common.port} is in use by another program, so the server took the next free port, ${site.port}.`,
    );
  }
  console.log(`Fieldguide reference server: ${site.url} (API at ${site.apiUrl})`);
  if (site.mediaUrl) console.log(`Media from another origin: ${site.mediaUrl}`);
  if (common.without.length > 0) console.log(`Without: ${common.without.join(', ')} (their endpoints answer 404)`);
  if (common.dialect === 'ifixit') {
    console.log(`Dialect: ifixit (signing in needs X-App-Id: ${(values['app-id'] ?? [DEMO_APP_ID]).join(' or ')})`);
  }
  if ((common.host === '0.0.0.0' || common.host === '::') && allowedHosts.length === 0) {
    console.log(
      `It answers to localhost, 127.0.0.1 and [::1] only: name the addresses other machines use with --allowed-host.`,
    );
  }
  const stop = (signal: string) => {
    console.log(`${signal}: closing`);
    site.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof PortUnavailableError) {
    // Not a usage mistake: say what is wrong and what to do, without the usage text or a stack trace.
    console.error(
      `${error.message} Stop that program, choose another port with --port, or use --port 0 for any free port.`,
    );
  } else {
    console.error(error instanceof Error ? error.message : error);
    console.error(USAGE);
  }
  process.exit(1);
});
