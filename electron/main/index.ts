// services.ts first: it sizes libuv's thread pool before anything uses it (core/threadpool.ts).
import { createServices, SECURITY_HEADERS, type Services } from '../core/services.ts';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, net, powerMonitor, session, shell } from 'electron';
import { DESKTOP_MEDIA_PREFIX, EVENT_CHANNEL } from '../contract.ts';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { registerAppSchemePrivileges, serveMedia, serveRenderer } from './app-protocol.ts';
import { demoAssetDir } from './demo-assets.ts';
import { registerIpc } from './ipc.ts';
import { electronNativeBinding } from './native.ts';
import { tokenSealing } from './secret-codec.ts';
import {
  APP_ORIGIN,
  developmentUrl,
  isExternalWebLink,
  isTrustedRendererUrl,
  mainWindowOptions,
} from './window-options.ts';

// The Electron shell: lifecycle, window, protocol, IPC wiring, safeStorage and network hints.
// Everything else lives in electron/core behind services.

// The development server only in a development run: a packaged app never loads a page named by the environment.
const devServerUrl = developmentUrl(process.env.ELECTRON_RENDERER_URL, app.isPackaged);
registerAppSchemePrivileges();
if (!app.requestSingleInstanceLock()) app.quit();

let services: Services | null = null;
let window: BrowserWindow | null = null;

function createWindow(current: Services): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(path.join(import.meta.dirname, '../preload/index.cjs')));
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebLink(url)) void shell.openExternal(url);
    else if (url.startsWith(DESKTOP_MEDIA_PREFIX)) {
      // A document of a guide: opened from its local copy by the system's viewer, never in a window of ours.
      // The site's address is the path (its query holds the media options, such as `download=1`).
      const file = current.resolveMedia(decodeURIComponent(new URL(url).pathname.replace(/^\//, '')));
      if (file?.path) void shell.openPath(file.path);
    }
    return { action: 'deny' };
  });
  // A navigation of the window itself away from the app goes nowhere, not even to the system browser: it
  // is the page's doing (a meta refresh in a site's quiz), not a click; links open through the handler above.
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  const unsubscribe = current.events.subscribe((event) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
  win.on('closed', () => unsubscribe());
  win.once('ready-to-show', () => win.show());
  void win.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}

function hardenSession(): void {
  // Every permission is refused but the camera, for a photo of a step (issue 16): video only, asked by the
  // app's own pages only. Whether a camera exists is the renderer's to say (it explains a refusal too).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const own =
      details.requestingUrl.startsWith(`${APP_ORIGIN}/`) ||
      (devServerUrl !== undefined && details.requestingUrl.startsWith(devServerUrl));
    const types = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    callback(permission === 'media' && own && types.length > 0 && types.every((type) => type === 'video'));
  });
  if (devServerUrl) {
    // The dev server's pages get the same policy as app:// pages.
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      const headers = { ...details.responseHeaders };
      if (details.url.startsWith(devServerUrl)) {
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name] = [value];
      }
      callback({ responseHeaders: headers });
    });
  }
}

async function main(): Promise<void> {
  await app.whenReady();
  hardenSession();
  serveRenderer(path.join(import.meta.dirname, '../renderer'));
  const sealing = tokenSealing();
  try {
    services = createServices({
      dataDir: app.getPath('userData'),
      version: app.getVersion(),
      secretCodec: sealing.codec,
      nativeBinding: electronNativeBinding(app.getAppPath(), process.resourcesPath, app.isPackaged),
      startDemoWorkshop: (dataDir) =>
        startDemoWorkshop(dataDir, { assetDir: demoAssetDir(app.getAppPath(), process.resourcesPath, app.isPackaged) }),
      log: (message) => console.error(`[fieldguide] ${message}`),
    });
  } catch (error) {
    dialog.showErrorBox('Fieldguide cannot start', error instanceof Error ? error.message : String(error));
    app.exit(1);
    return;
  }
  const current = services;
  serveMedia((request) => current.openMedia(request));
  registerIpc(ipcMain, current, (event) => {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isTrustedRendererUrl(frame.url, devServerUrl);
  });
  powerMonitor.on('resume', () => void current.start());
  let wasOnline = net.isOnline();
  setInterval(() => {
    const online = net.isOnline();
    if (online !== wasOnline) current.setNetworkHint(online);
    wasOnline = online;
  }, 5_000).unref();
  window = createWindow(current);
  void current.start();
  if (sealing.warning)
    void dialog.showMessageBox(window, {
      type: 'warning',
      title: 'Sign-in kept without a keychain',
      message: sealing.warning,
    });

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createWindow(current);
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
/** How long a quit waits for the data folder to close (a disk that hangs), before the process ends anyway. */
const QUIT_WAIT_MS = 10_000;
let quitting = false;
app.on('will-quit', (event) => {
  if (!services || quitting) return;
  // The data folder closes before the process ends: the outbox's last records, the work journal's last
  // flush, the database closed. Electron does not wait for a promise here, so the quit is held, then ended
  // (app.exit fires no second will-quit). Requests out end at once (Connection.close): no site holds it.
  quitting = true;
  event.preventDefault();
  const closed = services
    .close()
    .catch((error: unknown) =>
      console.error(`[fieldguide] The data folder did not close: ${error instanceof Error ? error.message : error}`),
    );
  const waited = new Promise((resolve) => setTimeout(resolve, QUIT_WAIT_MS));
  void Promise.race([closed, waited]).finally(() => app.exit(0));
});

void main();
