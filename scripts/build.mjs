// `npm run build` and `npm run start:web`: `electron-vite build`, unless out/ holds a build this script
// finished after the last change to anything it is built from (make's rule, by modification time). So
// `npm test` builds once and the README's commands that it runs again reuse that build. `--force` builds
// anyway. A build made by `electron-vite build` directly, or cut short, is never taken for current: the
// stamp is written only after a build that succeeded, and any file in out/ newer than it makes a rebuild.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'out');
const stamp = path.join(out, '.built');
/** What the build reads: the sources of all three bundles, and the configs and packages that shape them. */
const INPUTS = ['electron', 'src', 'server', 'electron.vite.config.ts', 'package.json', 'package-lock.json'];
const ENTRIES = ['main/index.js', 'preload/index.cjs', 'renderer/index.html'];

/** The newest modification time under `target` (a file or a folder), in ms; 0 when it is not there. */
function newest(target, skip = null) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return target === skip ? 0 : stat.mtimeMs;
  let latest = 0;
  for (const name of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, name), skip));
  return latest;
}

/** Why out/ must be built again, or null when it is current. */
function staleness() {
  if (!fs.existsSync(stamp)) return 'no finished build in out/';
  if (ENTRIES.some((entry) => !fs.existsSync(path.join(out, entry)))) return 'out/ is missing a bundle';
  const built = fs.statSync(stamp).mtimeMs;
  if (newest(out, stamp) > built) return 'out/ was written after the last finished build';
  const changed = INPUTS.find((input) => newest(path.join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

const reason = process.argv.includes('--force') ? 'asked to (--force)' : staleness();
if (reason === null) {
  console.log('out/ is current (built after the last change to its sources): not built again (--force builds)');
  process.exit(0);
}
console.log(`Building (${reason})`);
fs.rmSync(stamp, { force: true });
const bin = path.join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite',
);
const build = spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
fs.writeFileSync(stamp, `electron-vite build finished ${new Date().toISOString()}\n`);
