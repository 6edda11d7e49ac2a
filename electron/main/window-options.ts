import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The main window's options. Kept free of Electron's runtime so a test can check them: the renderer is
 * isolated from the preload's world, sandboxed, has no Node, and cannot turn those off.
 */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Fieldguide',
    backgroundColor: '#f4f5f2',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      safeDialogs: true,
    },
  };
}

/** Where the renderer is served from in the desktop app: a privileged scheme of our own. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'fieldguide';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Only our own pages may call the App API; the dev server counts as our own in development. */
export function isTrustedRendererUrl(url: string, devServerUrl?: string): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`)) return true;
  if (devServerUrl) {
    try {
      return new URL(url).origin === new URL(devServerUrl).origin;
    } catch {
      return false;
    }
  }
  return false;
}

/** External links open in the system browser, and only web links. */
export function isExternalWebLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The renderer's development server (`electron-vite dev`), honoured only in an unpackaged app. */
export function developmentUrl(fromEnvironment: string | undefined, packaged: boolean): string | undefined {
  return packaged ? undefined : fromEnvironment;
}
