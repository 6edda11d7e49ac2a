import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../electron/core/security/csp.ts';
import { resolveInside } from '../../electron/main/paths.ts';
import {
  APP_ORIGIN,
  isExternalWebLink,
  isTrustedRendererUrl,
  mainWindowOptions,
} from '../../electron/main/window-options.ts';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('the desktop window is locked down', () => {
  it('isolates, sandboxes and denies Node to the renderer', () => {
    const options = mainWindowOptions('/app/out/preload/index.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('has a Content-Security-Policy that allows no inline, eval or remote script', () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    // WebAssembly compiled from the app's own .wasm (the scanner's reader), and no JavaScript eval.
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY.replace("'wasm-unsafe-eval'", '')).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it('trusts only its own pages for the App API and navigation', () => {
    expect(isTrustedRendererUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    expect(isTrustedRendererUrl('app://evil/index.html')).toBe(false);
    expect(isTrustedRendererUrl('https://example.com/')).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/x', 'http://localhost:5173')).toBe(false);
  });

  it('opens only http and https links in the system browser', () => {
    expect(isExternalWebLink('https://www.ifixit.com/Guide/1')).toBe(true);
    expect(isExternalWebLink('http://example.com')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://share/x', 'not a url']) {
      expect(isExternalWebLink(url)).toBe(false);
    }
  });

  it('serves renderer files only from inside the renderer folder', () => {
    const root = path.resolve('/app/out/renderer');
    expect(resolveInside(root, '/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveInside(root, '/assets/a%20b.js')).toBe(path.join(root, 'assets', 'a b.js'));
    for (const attack of [
      '/../main/index.js',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc/passwd',
      '/a%00.js',
      '/%E0%A4%A',
    ]) {
      expect(resolveInside(root, attack)).toBeNull();
    }
  });
});
