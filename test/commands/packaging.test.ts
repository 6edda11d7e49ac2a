import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { extractAll } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAssetDir } from '../../electron/main/demo-assets.ts';
import { electronNativeBinding } from '../../electron/main/native.ts';
import { startDemoSite } from '../../server/site.ts';
import { root } from './process.ts';

// The packed app holds everything its main process reads at run time. `npm run dist` needs the Electron
// binary, which electron-builder downloads; here electron-builder packs with the project's own
// electron-builder.yml (found in the project folder, as `npm run dist --config electron-builder.yml`
// names it) into the `dir` target, with two overrides only: `electronDist`, a folder holding a stand-in
// `electron` executable (electron-builder 26 copies an unpacked Electron folder as it is and renames the
// executable; nothing is downloaded), and the output folder (a temp folder). Then the packed app is read:
// app.asar and the extra resources beside it.
//
// better-sqlite3 for Electron (.native/electron/better_sqlite3.node) is built by
// scripts/native-electron.mjs, which needs the internet. When it is not there, the test writes a stand-in
// file in its place for the packing and removes it afterwards: then the test proves the file is shipped
// where the main process looks for it, not that it is a working Electron build.

const run = promisify(execFile);
const nativeSource = path.join(root, '.native', 'electron', 'better_sqlite3.node');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldguide-pack-'));
/**
 * Electron's fuse wire as @electron/fuses finds it in a real binary: a sentinel, the wire's version (1),
 * its length, then one byte per fuse ('1' on, '0' off). These are Electron's defaults, so the packed copy
 * shows which fuses electron-builder flipped from electron-builder.yml. Order: RunAsNode, cookie
 * encryption, NODE_OPTIONS, inspect arguments, asar integrity, only app.asar, browser V8 snapshot,
 * file:// privileges.
 */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;
const DEFAULT_WIRE = '10110001';
const STAND_IN_ELECTRON =
  `#!/bin/sh\n` +
  `echo "stand-in for Electron, written by test/commands/packaging.test.ts" >&2\nexit 1\n` +
  `# ${FUSE_SENTINEL}\x01\x08${DEFAULT_WIRE}\n`;

/** The fuses of an Electron binary, by name, read as @electron/fuses reads them. */
function fusesOf(binary: Buffer): Record<string, boolean> {
  const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  const length = binary[at + 1]!;
  return Object.fromEntries(FUSE_NAMES.slice(0, length).map((name, index) => [name, binary[at + 2 + index] === 0x31]));
}
const STAND_IN_NATIVE = 'stand-in for better-sqlite3 built for Electron, written by test/commands/packaging.test.ts\n';
let placedNativeStandIn = false;
let createdNativeDir: string | undefined;
let appOut = '';
let resources = '';
let app = '';

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

describe.runIf(process.platform === 'linux')('the packed app (electron-builder --dir, a stand-in Electron)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'out', 'main', 'index.js')))
      throw new Error('The app is not built (out/main): run npm run build first');
    const electronDist = path.join(work, 'electron-dist');
    fs.mkdirSync(electronDist);
    fs.writeFileSync(path.join(electronDist, 'electron'), STAND_IN_ELECTRON, { mode: 0o755 });
    if (!fs.existsSync(nativeSource)) {
      createdNativeDir = fs.mkdirSync(path.dirname(nativeSource), { recursive: true });
      fs.writeFileSync(nativeSource, STAND_IN_NATIVE, { flag: 'wx' });
      placedNativeStandIn = true;
    }
    const output = path.join(work, 'release');
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget('dir'),
      config: { electronDist, directories: { output } },
      publish: 'never',
    });
    const unpacked = fs.readdirSync(output).filter((name) => /^linux-.*unpacked$/.test(name));
    expect(unpacked).toHaveLength(1);
    appOut = path.join(output, unpacked[0]!);
    resources = path.join(appOut, 'resources');
    app = path.join(work, 'app');
    extractAll(path.join(resources, 'app.asar'), app);
  }, 300_000);

  afterAll(() => {
    if (placedNativeStandIn && fs.readFileSync(nativeSource, 'utf8') === STAND_IN_NATIVE) fs.rmSync(nativeSource);
    // The folders made for the stand-in go too, when nothing else was put there meanwhile.
    if (createdNativeDir && filesUnder(createdNativeDir).length === 0) fs.rmSync(createdNativeDir, { recursive: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('was packed with the stand-in Electron, nothing downloaded, from the config npm run dist names', () => {
    const packed = fs.readFileSync(path.join(appOut, 'fieldguide'), 'utf8');
    // Byte for byte but for the fuse wire, which electron-builder flips (next test).
    expect(packed.slice(0, packed.indexOf(FUSE_SENTINEL))).toBe(
      STAND_IN_ELECTRON.slice(0, STAND_IN_ELECTRON.indexOf(FUSE_SENTINEL)),
    );
    // electron-builder found electron-builder.yml in the project folder; npm run dist names the same file.
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dist).toMatch(/\belectron-builder --config electron-builder\.yml$/);
  });

  it(
    'the packed Electron has the fuses electron-builder.yml sets: ' +
      'no Node mode, no NODE_OPTIONS or inspector, only app.asar',
    () => {
      const config = fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
      const wanted = Object.fromEntries(
        [...config.matchAll(/^  (\w+): (true|false)$/gm)]
          .filter(([, name]) => (FUSE_NAMES as readonly string[]).includes(name!))
          .map(([, name, on]) => [name!, on === 'true']),
      );
      expect(wanted).toEqual({
        runAsNode: false,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        onlyLoadAppFromAsar: true,
        enableEmbeddedAsarIntegrityValidation: true,
        enableCookieEncryption: true,
        grantFileProtocolExtraPrivileges: false,
      });
      expect(fusesOf(Buffer.from(STAND_IN_ELECTRON))).toMatchObject({ runAsNode: true, onlyLoadAppFromAsar: false });
      expect(fusesOf(fs.readFileSync(path.join(appOut, 'fieldguide')))).toMatchObject(wanted);
    },
  );

  it("app.asar holds package.json's main and every file of the build, byte for byte (source maps left out)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      main: string;
      version: string;
    };
    expect(pkg.main).toBe('out/main/index.js');
    expect(fs.existsSync(path.join(app, pkg.main))).toBe(true);
    const built = filesUnder(path.join(root, 'out')).filter((name) => !name.endsWith('.map'));
    expect(built).toContain('main/index.js');
    expect(built).toContain('preload/index.cjs');
    expect(built).toContain('renderer/index.html');
    const packed = new Set(filesUnder(path.join(app, 'out')));
    expect(
      built.filter((name) => !packed.has(name)),
      'built files missing from app.asar',
    ).toEqual([]);
    for (const name of built) {
      expect(
        fs.readFileSync(path.join(app, 'out', name)).equals(fs.readFileSync(path.join(root, 'out', name))),
        name,
      ).toBe(true);
    }
  });

  it('every path the main bundle finds from its own location is in the packed app', () => {
    const bundleDir = path.join(app, 'out', 'main');
    const bundles = fs.readdirSync(bundleDir).filter((name) => name.endsWith('.js'));
    const relative = new Set<string>();
    for (const bundle of bundles) {
      const code = fs.readFileSync(path.join(bundleDir, bundle), 'utf8');
      for (const match of code.matchAll(
        /join\(import\.meta\.dirname,\s*"([^"]+)"\)|new URL\("([^"]+)",\s*import\.meta\.url\)/g,
      ))
        relative.add(match[1] ?? match[2]!);
      expect(code, `${bundle} uses __dirname/__filename: add its paths to this test`).not.toMatch(
        /\b__(dirname|filename)\b/,
      );
    }
    // The preload and the renderer; the demo's checkout default, which the Electron main never uses: it
    // passes demoAssetDir() (process.resourcesPath/demo when packaged, checked below).
    expect([...relative].sort()).toEqual(['../../resources/demo/', '../preload/index.cjs', '../renderer'].sort());
    for (const wanted of relative) {
      if (wanted === '../../resources/demo/') continue;
      expect(fs.existsSync(path.join(bundleDir, wanted)), wanted).toBe(true);
    }
    expect(fs.existsSync(path.join(bundleDir, '../renderer/index.html'))).toBe(true);
    const main = fs.readFileSync(path.join(bundleDir, 'index.js'), 'utf8');
    expect(main).toContain(
      'startDemoWorkshop(dataDir, { assetDir: demoAssetDir(app.getAppPath(), process.resourcesPath, app.isPackaged) })',
    );
  });

  it('every package the main bundle imports resolves inside the packed app and loads there', async () => {
    const bundleDir = path.join(app, 'out', 'main');
    const specifiers = new Set<string>();
    for (const bundle of fs.readdirSync(bundleDir).filter((name) => name.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(bundleDir, bundle), 'utf8');
      for (const match of code.matchAll(/(?:^import[^"\n]*from\s*|^import\s*|\bimport\(|\brequire\()"([^"]+)"/gm))
        specifiers.add(match[1]!);
    }
    const packages = [...specifiers]
      .filter((name) => !name.startsWith('.') && !name.startsWith('node:') && name !== 'electron')
      .sort();
    expect(packages).toContain('better-sqlite3');
    expect(packages).toContain('hono');
    // A probe beside the bundle imports each as the bundle would: Node's resolution from out/main, which
    // must not leave the packed app (a package found in some node_modules above it would not be there).
    const probe = path.join(bundleDir, 'packed-app-probe.mjs');
    fs.writeFileSync(
      probe,
      `const out = [];
for (const name of ${JSON.stringify(packages)}) {
  try {
    const resolved = import.meta.resolve(name);
    await import(name);
    out.push({ name, resolved });
  } catch (error) {
    out.push({ name, error: String(error) });
  }
}
console.log(JSON.stringify(out));`,
    );
    const { stdout } = await run(process.execPath, [probe], { cwd: app, env: { ...process.env, NODE_PATH: '' } });
    const results = JSON.parse(stdout) as { name: string; resolved?: string; error?: string }[];
    expect(results.filter((result) => result.error)).toEqual([]);
    for (const result of results)
      expect(
        new URL(result.resolved!).pathname.startsWith(`${app}/node_modules/`),
        `${result.name}: ${result.resolved}`,
      ).toBe(true);
  });

  const standIn = fs.existsSync(nativeSource) ? '' : ' (a stand-in file: this machine cannot build the Electron copy)';
  it(`better-sqlite3 for Electron is where the packaged main process looks for it${standIn}`, () => {
    const shipped = electronNativeBinding(app, resources, true);
    expect(shipped).toBe(path.join(resources, 'native', 'better_sqlite3.node'));
    expect(fs.readFileSync(shipped).equals(fs.readFileSync(nativeSource))).toBe(true);
  });

  it(
    'the demo media are shipped where the packaged main process looks, ' + 'and the demo workshop seeds from them',
    async () => {
      const shipped = demoAssetDir(app, resources, true);
      expect(shipped).toBe(path.join(resources, 'demo'));
      const source = path.join(root, 'resources', 'demo');
      const wanted = filesUnder(source);
      expect(wanted.length).toBeGreaterThan(0);
      const packed = fs.existsSync(shipped) ? new Set(filesUnder(shipped)) : new Set<string>();
      expect(
        wanted.filter((name) => !packed.has(name)),
        'demo files missing from the packed app',
      ).toEqual([]);
      for (const name of wanted)
        expect(fs.readFileSync(path.join(shipped, name)).equals(fs.readFileSync(path.join(source, name))), name).toBe(
          true,
        );

      // The seed the demo workshop runs on its first start, reading the packed copy (it throws on a missing file).
      const site = await startDemoSite({ assetDir: shipped });
      try {
        const video = site.db.prepare('SELECT count(*) AS n FROM videos').get() as { n: number };
        expect(video.n).toBeGreaterThan(0);
      } finally {
        await site.close();
      }
    },
  );
});
