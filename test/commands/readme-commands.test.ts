import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCH_HEADER, LAUNCH_STORAGE_KEY } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { artifact, launchChromium } from '../e2e/browser.ts';
import { root, runCommand, stopAll, type RunningCommand } from './process.ts';

// Every command of the README's command table, run exactly as written there, from the repository root,
// through `sh -c`. The table is read from README.md: a command added there without a case here (or listed
// here but gone from there) fails the first test. The only things a case may set are environment
// variables: HOME (a temp folder, so the web shell's data folder ~/.fieldguide-web is the test's own) and
// the benchmark's sizes. Every process is started in a group of its own and the group is killed.

/** The first code span of each row's Command cell in README.md's "## Commands" table. */
function readmeCommands(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = /^## Commands\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Commands" section');
  const commands: string[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | What | Command |: cells are ['', what, command, ''].
    if (cells.length < 4 || cells[1] === 'What' || /^-+$/.test(cells[1]!)) continue;
    const command = /`([^`]+)`/.exec(cells[2]!)?.[1];
    if (!command) throw new Error(`README.md's command table has a row without a command: ${line}`);
    commands.push(command);
  }
  return commands;
}

/** README commands this machine cannot run, and what covers them instead. */
const NOT_RUN: Record<string, string> = {
  'npm install && npm start':
    'launches the Electron binary, ' +
    'which cannot be downloaded or launched here (ELECTRON_SKIP_BINARY_DOWNLOAD; no display), and ' +
    'first builds better-sqlite3 for Electron, which needs the internet. ' +
    'Covered as far as it goes: `npm run build` below builds (or finds current) ' +
    'the same main, preload and renderer, ' +
    'and test/commands/packaging.test.ts checks every file the main process reads.',
  'npm install && npm test': 'is this suite: running it from inside itself would recurse.',
  'npm run test:busy': 'runs `npm test`, this suite: running it from inside itself would recurse.',
  'npm run test:quick':
    'is the format check, the import rules, the typecheck and the unit project that this same `npm test` ' +
    'has just run in full: running them again would add minutes and prove nothing new. ' +
    'test/core/test-tiers.test.ts checks that its steps are those of `npm test` and that ' +
    'FIELDGUIDE_SEEDS=quick lowers the seed counts.',
  'npm run dist':
    'needs the Electron binary (electron-builder downloads it) ' +
    'and better-sqlite3 built for Electron (the internet). Covered by ' +
    'test/commands/packaging.test.ts: ' +
    'electron-builder --dir with the same electron-builder.yml and a stand-in Electron.',
};

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldguide-readme-home-'));
const env = { HOME: home };
const GENERATED_DB = '/tmp/site.sqlite';

/** How each runnable README command is run and checked, by its exact text. */
const RUN: Record<string, (command: string) => Promise<void>> = {
  'npm run build': async (command) => {
    // `npm test` built the app just before; the command finds that build current and keeps it (a build
    // takes most of a minute on a busy machine), or builds when something changed since. Either way it
    // ends with the three bundles and a stamp newer than every source file (scripts/build.mjs).
    const started = Date.now();
    const run = runCommand(command, { env });
    expect(await run.exit(300_000), run.output()).toBe(0);
    expect(run.stdout()).toMatch(/out\/ is current|Building \(/);
    const built = fs.statSync(path.join(root, 'out', '.built')).mtimeMs;
    if (run.stdout().includes('Building (')) expect(built).toBeGreaterThanOrEqual(started - 1000);
    for (const file of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])
      expect(fs.statSync(path.join(root, file)).mtimeMs, file).toBeLessThanOrEqual(built);
    for (const dir of ['electron', 'src', 'server'])
      for (const name of fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
        expect(fs.statSync(path.join(root, dir, name)).mtimeMs, name).toBeLessThanOrEqual(built);
  },

  'npm run format': async (command) => {
    // Prettier rewrites what it must (on a tree that passed `npm test`'s format check first: nothing) and
    // leaves every file as `npm run format:check` wants it.
    const run = runCommand(command, { env });
    expect(await run.exit(300_000), run.output()).toBe(0);
    expect(run.output()).toContain('Checking formatting...');
    const check = runCommand('npm run format:check', { env });
    expect(await check.exit(300_000), check.output()).toBe(0);
    expect(check.output()).toContain('All matched files use Prettier code style!');
  },

  'npm run start:web': async (command) => {
    const run = runCommand(command, { env });
    try {
      const [, url, port] = await run.waitFor(
        /Fieldguide \(web shell\) at (http:\/\/127\.0\.0\.1:(\d+)\/\?launch=[\w-]{40,})/,
        300_000,
      );
      // The README promises 5174, or the next free port said out loud when another program has it.
      if (port !== '5174') expect(run.stdout()).toContain('Port 5174 is in use by another program');
      // Without the secret in the printed address, another process on this machine is refused.
      const bare = await fetch(new URL('/rpc/getStatus', url!), { method: 'POST', body: '{"args":[]}' });
      expect(bare.status).toBe(401);
      expect(run.output()).not.toMatch(/EADDRINUSE|Unknown option/);
      // Its build step keeps a current build (scripts/build.mjs) or makes one.
      expect(run.stdout()).toMatch(/out\/ is current|Building \(/);
      await openDemoWorkshopPage(url!);
    } finally {
      await run.stop();
    }
  },

  'npm run server -- --demo --port 8080': async (command) => {
    const run = runCommand(command, { env });
    try {
      const url = (await run.waitFor(/Fieldguide reference server: (http:\/\/127\.0\.0\.1:(\d+))/, 120_000))[1]!;
      if (!url.endsWith(':8080')) expect(run.stdout()).toContain('Port 8080 is in use by another program');
      const guides = (await getJson(`${url}/api/2.0/guides`)) as { title: string }[];
      expect(guides.length).toBeGreaterThan(0);
      // The demo accounts of the README sign in.
      const token = await fetch(`${url}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
      });
      expect(token.status).toBe(201);
    } finally {
      await run.stop();
    }
  },

  'npm run server -- --generate --guides 5000 --steps 6 --images 1 --seed 1 --db /tmp/site.sqlite': async (command) => {
    // The path is the README's own. A file already there is somebody's site: the command opens it as it
    // is (a seeded file is never seeded again) and the test leaves it alone; one this test made is removed.
    const existed = fs.existsSync(GENERATED_DB);
    const run = runCommand(command, { env });
    try {
      const url = (await run.waitFor(/Fieldguide reference server: (http:\/\/127\.0\.0\.1:\d+)/, 600_000))[1]!;
      const guides = (await getJson(`${url}/api/2.0/guides?limit=200`)) as unknown[];
      expect(guides.length).toBeGreaterThan(0);
      await run.stop();
      expect(fs.existsSync(GENERATED_DB)).toBe(true);
      if (!existed) {
        const db = new Database(GENERATED_DB, { readonly: true });
        try {
          expect((db.prepare('SELECT count(*) AS n FROM guides').get() as { n: number }).n).toBe(5000);
        } finally {
          db.close();
        }
      }
    } finally {
      await run.stop();
      if (!existed) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(GENERATED_DB + suffix, { force: true });
    }
  },

  'npm run bench': async (command) => {
    // The README names the sizes' variables: they must be the ones the bench reads.
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const named = [...new Set(readme.match(/BENCH_[A-Z_]+/g) ?? [])];
    const bench = fs.readFileSync(path.join(root, 'test/bench/run.ts'), 'utf8');
    for (const name of named) expect(bench, `README names ${name}`).toContain(`process.env.${name}`);
    // Tiny sizes: the command is what is tested here, not the figures.
    const run = runCommand(command, {
      env: {
        ...env,
        BENCH_SIZES: '12',
        BENCH_LOCAL_GUIDES: '20',
        BENCH_ROUNDS: '1',
        BENCH_SESSIONS: '2',
        BENCH_BIG: '30',
        BENCH_OFFLINE_ROUNDS: '1',
        BENCH_REPLAY_ROUNDS: '1',
        BENCH_WAIT_ROUNDS: '1',
        BENCH_SLOW_DISK_ROUNDS: '1',
        BENCH_SLOW_DISK_MS: '30',
        BENCH_FILE_MB: '2',
        BENCH_FILE_ROUNDS: '1',
      },
    });
    try {
      expect(await run.exit(600_000), run.output()).toBe(0);
      expect(run.stdout()).toContain('Initial sync of a generated site');
      expect(run.stdout()).toMatch(/^12 \| \d+ \|/m);
      expect(run.stdout()).toContain('Local library of');
      expect(run.stdout()).toContain('Outbox:');
      expect(run.stdout()).toMatch(/A big video in a work session[^\n]*\n {2}attach 2 MB: \d+ ms/);
      expect(run.stdout()).toMatch(/CPU replay\/that client = \d+\.\d\d \(medians of 1 rounds\)/);
      expect(run.stdout()).toContain('A big site: the summary sync of 30 guides');
      expect(run.stdout()).toMatch(/^site hanging \(from the first click on\): open a guide median \d+ ms/m);
      expect(run.stdout()).toMatch(/^each flush \+30 ms: open a guide median \d+ ms.*, flushes \d+\.\d \/ \d+\.\d;/m);
      expect(run.stdout()).toMatch(
        /^each flush \+30 ms: .*; attach a photo median \d+ ms.*; save a setting median \d+ ms/m,
      );
    } finally {
      await run.stop();
    }
  },
};

let browser: Browser | undefined;
const commands = readmeCommands();

beforeAll(() => {
  // The generated site's file is shared with anyone on this machine running the same README command.
  if (fs.existsSync(GENERATED_DB))
    console.warn(`${GENERATED_DB} exists already: the generator case opens it as it is and leaves it.`);
});
afterAll(async () => {
  await stopAll();
  await browser?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("the README's commands, run as written", () => {
  it('every command in the table is run here, or listed with the reason it cannot be', () => {
    expect(commands.length).toBeGreaterThan(0);
    const covered = new Set([...Object.keys(RUN), ...Object.keys(NOT_RUN)]);
    expect(
      commands.filter((command) => !covered.has(command)),
      'README commands without a test',
    ).toEqual([]);
    expect(
      [...covered].filter((command) => !commands.includes(command)),
      'cases for commands the README no longer has',
    ).toEqual([]);
    expect(Object.keys(RUN).filter((command) => command in NOT_RUN)).toEqual([]);
  });

  for (const command of commands.filter((command) => command in RUN)) {
    it(command, { timeout: 900_000 }, () => RUN[command]!(command));
  }

  for (const command of commands.filter((command) => command in NOT_RUN)) {
    it.skip(`${command}: not run here, because it ${NOT_RUN[command]}`, () => {});
  }
});

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return response.json();
}

/**
 * Chromium opens the printed address: the page is the demo workshop's library, not the Connect screen,
 * signed in as the README's technician, and shows the demo's guides once its first sync lands.
 */
type StatusAnswer = {
  ok: boolean;
  value: { site: { url: string; demo: boolean } | null; user: { username: string } | null };
};

async function openDemoWorkshopPage(url: string): Promise<void> {
  browser ??= await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await page.goto(url);
    // The page keeps the printed address's secret in its own storage and sends it as a header (issue 26).
    await page.waitForFunction((key) => localStorage.getItem(key) !== null, LAUNCH_STORAGE_KEY);
    const asked = { key: LAUNCH_STORAGE_KEY, header: LAUNCH_HEADER };
    const status = (await page.evaluate(async ({ key, header }) => {
      const { secret } = JSON.parse(localStorage.getItem(key)!) as { secret: string };
      const headers = { 'Content-Type': 'application/json', [header]: secret };
      const response = await fetch('/rpc/getStatus', { method: 'POST', headers, body: '{"args":[]}' });
      return response.json();
    }, asked)) as StatusAnswer;
    expect(status.ok).toBe(true);
    expect(status.value.site?.demo).toBe(true);
    expect(status.value.user?.username).toBe(DEMO_ACCOUNTS.tech1.username);

    // The demo site's own guide titles (it runs on 127.0.0.1), one of which the library must show.
    const titles = ((await getJson(`${status.value.site!.url}/api/2.0/guides`)) as { title: string }[]).map(
      (guide) => guide.title,
    );
    expect(titles.length).toBeGreaterThan(0);
    await page.waitForFunction(
      (wanted) => location.pathname !== '/connect' && wanted.some((title) => document.body.innerText.includes(title)),
      titles,
      {
        timeout: 120_000,
      },
    );
    expect(new URL(page.url()).pathname).not.toBe('/connect');
    await page.screenshot({ path: artifact('readme-start-web.png') });
    expect(pageErrors).toEqual([]);
  } finally {
    await page.close();
  }
}
