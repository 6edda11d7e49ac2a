import { z } from 'zod';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';

const DISPLAY_KEY = 'library.display';
const displaySchema = z.object({ width: z.number().int().positive(), height: z.number().int().positive() });

/** The screen the videos are kept for, in device pixels, as the window last told it (setDisplay). */
export class Display {
  constructor(
    private readonly settings: SettingsRepo,
    /**
     * A commit that does not wait for the disk (Store.replaceable): the window tells its size again at each
     * start and resize, and a flush each held the main process as the window was dragged.
     */
    private readonly replaceable: (write: () => void) => void,
  ) {}

  /** Null before the window told it. */
  get(): { width: number; height: number } | null {
    return this.settings.get(DISPLAY_KEY, displaySchema) ?? null;
  }

  set(display: { width: number; height: number }): void {
    const known = this.get();
    if (known?.width === display.width && known.height === display.height) return;
    this.replaceable(() => this.settings.set(DISPLAY_KEY, display));
  }
}
