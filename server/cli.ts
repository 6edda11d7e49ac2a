import { parseArgs } from 'node:util';
import { generateSite } from './generator/generator.ts';
import { setPictureCacheBudget } from './media/picture-cache.ts';
import { startDemoSite, startSite, type RunningSite } from './site.ts';

const USAGE = `Usage: npm run server -- [--port P] [--host H] [--db FILE] [--demo | --generate --guides N --steps M --images K --seed S] [--test-hooks] [--picture-cache-mb MB]`;

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`--${name} must be a whole number, got ${value}`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
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
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values['picture-cache-mb'] !== undefined) setPictureCacheBudget(count(values['picture-cache-mb'], 'picture-cache-mb', 48) * 1024 * 1024);
  if (values.demo && values.generate) throw new Error('Choose one of --demo and --generate');
  const common = {
    port: count(values.port, 'port', 0),
    ...(values.host ? { host: values.host } : {}),
    ...(values.db ? { dbFile: values.db } : {}),
    testHooks: values['test-hooks'],
  };

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
    site = await startDemoSite(common);
  } else {
    site = await startSite(common);
  }

  console.log(`Fieldguide reference server: ${site.url} (API at ${site.apiUrl})`);
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
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
