import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { methodChannel, type Result } from '../contract.ts';
import { APP_METHODS, type Services } from '../core/services.ts';

/**
 * One `ipcMain.handle` per method the core declares (core/app-methods.ts), each passing the untrusted
 * arguments to services (which validates them). A call from a frame that is not our own top-level page is refused.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  services: Pick<Services, 'invoke'>,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  for (const method of APP_METHODS) {
    ipcMain.handle(methodChannel(method), async (event, ...args: unknown[]): Promise<Result<unknown>> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'forbidden', message: 'This frame may not use the App API' } };
      }
      return services.invoke(method, args);
    });
  }
  return () => {
    for (const method of APP_METHODS) ipcMain.removeHandler(methodChannel(method));
  };
}
