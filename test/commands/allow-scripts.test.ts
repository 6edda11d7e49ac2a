import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from './process.ts';

// npm 12 skips the install scripts of dependencies that package.json's allowScripts does not approve:
// unreviewed, better-sqlite3 would never be built. The reviewed list lives in package.json (written with
// `npm install-scripts approve|deny`); .ci/run installs with --strict-allow-scripts where npm knows it.

const run = promisify(execFile);
const npm = async (...args: string[]): Promise<string> =>
  (await run('npm', args, { cwd: root, env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } })).stdout.trim();

describe('install scripts of dependencies', () => {
  it('are reviewed: better-sqlite3 builds, esbuild and electron-winstaller do not run', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: false, 'electron-winstaller': false });
  });

  it(
    'every installed dependency with an install script ' + 'is covered by allowScripts (npm install-scripts ls)',
    async (context) => {
      if ((await npm('config', 'get', 'strict-allow-scripts')) === 'undefined') {
        context.skip(`npm ${await npm('--version')} has no allowScripts policy to check`);
      }
      const listed = JSON.parse(await npm('install-scripts', 'ls', '--json')) as { allowScripts: unknown[] };
      expect(
        listed.allowScripts,
        'dependencies with install scripts nobody reviewed: npm install-scripts approve|deny them',
      ).toEqual([]);
    },
  );

  it('CI installs with --strict-allow-scripts where npm knows it, then checks better-sqlite3 was built', () => {
    const ci = fs.readFileSync(path.join(root, '.ci', 'run'), 'utf8');
    expect(ci).toContain('strict=(--strict-allow-scripts)');
    expect(ci).toMatch(/^npm ci --no-audit --no-fund "\$\{strict\[@\]\}"$/m);
    expect(ci).toMatch(/^node -e "new \(require\('better-sqlite3'\)\)\(':memory:'\)\.close\(\)"$/m);
  });
});
