import path from 'node:path';

/**
 * The demo workshop's media files (the demo video). In a checkout they are `resources/demo`; a packaged
 * app ships them beside app.asar as an extra resource (electron-builder.yml), so the seed reads them from
 * `process.resourcesPath`, never from inside the bundle.
 */
export function demoAssetDir(appPath: string, resourcesPath: string, packaged: boolean): string {
  return packaged ? path.join(resourcesPath, 'demo') : path.join(appPath, 'resources', 'demo');
}
