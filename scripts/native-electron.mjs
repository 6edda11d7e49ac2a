#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into .native/electron/, beside (not over) the copy npm built
// for Node, so the tests (Node) and the app (Electron, which loads it through better-sqlite3's
// `nativeBinding` option) both work from one checkout.
//
// It tries a prebuilt binary for Electron first (prebuild-install), then a source build against
// Electron's headers (node-gyp). npm's `nodedir` setting is removed from the environment of both: with it,
// node-gyp silently builds against Node's headers instead, and Electron then refuses the addon.
// Both steps download from the internet (prebuilt binaries, Electron headers); with no network they fail,
// and this script says so and exits non-zero.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const electronVersion = require('electron/package.json').version;
const sqlitePackage = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = require('better-sqlite3/package.json').version;
const outDir = path.join(root, '.native', 'electron');
const outFile = path.join(outDir, 'better_sqlite3.node');
const stampFile = path.join(outDir, 'stamp.json');
const stamp = {
  electron: electronVersion,
  betterSqlite3: sqliteVersion,
  platform: process.platform,
  arch: process.arch,
};

if (
  fs.existsSync(outFile) &&
  fs.existsSync(stampFile) &&
  fs.readFileSync(stampFile, 'utf8') === JSON.stringify(stamp)
) {
  console.log(
    `better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} is ready at ${path.relative(root, outFile)}`,
  );
  process.exit(0);
}

const env = { ...process.env };
for (const key of Object.keys(env)) if (key.toLowerCase() === 'npm_config_nodedir') delete env[key];

const work = path.join(root, '.native', 'build', `better-sqlite3-${sqliteVersion}`);
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(path.dirname(work), { recursive: true });
fs.cpSync(sqlitePackage, work, { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });

const attempts = [
  {
    what: 'prebuilt binary for Electron',
    cmd: process.execPath,
    args: [
      require.resolve('prebuild-install/bin.js'),
      '--runtime',
      'electron',
      '--target',
      electronVersion,
      '--arch',
      process.arch,
      '--platform',
      process.platform,
    ],
  },
  {
    what: "source build against Electron's headers",
    cmd: process.execPath,
    args: [
      require.resolve('node-gyp/bin/node-gyp.js'),
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${electronVersion}`,
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
  },
];

for (const attempt of attempts) {
  try {
    console.log(`better-sqlite3 for Electron ${electronVersion}: trying the ${attempt.what}…`);
    execFileSync(attempt.cmd, attempt.args, { cwd: work, env, stdio: 'inherit' });
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    if (!fs.existsSync(built)) throw new Error(`${built} was not produced`);
    fs.mkdirSync(outDir, { recursive: true });
    fs.copyFileSync(built, outFile);
    fs.writeFileSync(stampFile, JSON.stringify(stamp));
    console.log(`better-sqlite3 for Electron is ready at ${path.relative(root, outFile)}`);
    process.exit(0);
  } catch (error) {
    console.error(`  the ${attempt.what} failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
  }
}
console.error(
  `Could not build better-sqlite3 for Electron ${electronVersion}. Both ways need the internet (a prebuilt ` +
    "binary, or Electron's headers). Connect and run `node scripts/native-electron.mjs` again; the tests and " +
    'the web shell (npm run start:web) do not need it.',
);
process.exit(1);
