import { z } from 'zod';
import type { PictureQuality, PictureQualityOption, PictureQualityState } from '../../contract.ts';
import { PICTURE_QUALITIES, zoomVariant } from '../../shared/media.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { Store } from '../db/store.ts';

const QUALITY_KEY = 'library.pictureQuality';
/**
 * Kept until the technician chooses: the site's `large` step pictures, where small print stays readable
 * (the steps' own 300-pixel pictures, stretched in the lightbox, do not). Where the storage budget has no
 * room for them the sync keeps what fits and says so, without failing (sync/media-downloader.ts).
 */
export const DEFAULT_PICTURE_QUALITY: PictureQuality = 'large';
export const pictureQualitySchema = z.enum(['standard', 'large', 'original']);

/** Pictures the site is asked the size of (HEAD) before any of a quality is kept, and how long it may take. */
const SAMPLE = 4;
const SAMPLE_TIMEOUT_MS = 5_000;

export interface PictureQualityDeps {
  store: Store;
  transport: () => ApiTransport;
  online: () => boolean;
  /** The media budget now (the disk may shrink it) and what the media take of it. */
  budget: () => { budgetBytes: number; mediaBytes: number };
}

/**
 * The picture quality kept for zoom (a setting) and the room each would take. The estimate is the count
 * of the stored guides' step pictures times a size per picture: the average of those of that quality
 * already kept when there are some, else the average the site reports (HEAD) for a few of them, asked
 * once per site while it answers. Nothing is downloaded to estimate.
 */
export class PictureQualities {
  readonly #reported = new Map<'large' | 'original', number>();

  constructor(private readonly deps: PictureQualityDeps) {}

  quality(): PictureQuality {
    return this.deps.store.settings.get(QUALITY_KEY, pictureQualitySchema) ?? DEFAULT_PICTURE_QUALITY;
  }

  /** Whether the technician chose the quality (the default gives way to the budget quietly). */
  chosen(): boolean {
    return this.deps.store.settings.get(QUALITY_KEY, pictureQualitySchema) !== undefined;
  }

  /** On the disk when the promise resolves, the flush made on the thread pool (Store.durable). */
  async set(quality: PictureQuality): Promise<void> {
    const chosen = pictureQualitySchema.parse(quality);
    await this.deps.store.durable(() => this.deps.store.settings.set(QUALITY_KEY, chosen));
  }

  async state(): Promise<PictureQualityState> {
    const options: PictureQualityOption[] = [];
    for (const quality of PICTURE_QUALITIES) options.push(await this.#option(quality));
    const budget = this.deps.budget();
    return { quality: this.quality(), chosen: this.chosen(), options, ...budget };
  }

  /** Another site: what it reported of sizes belongs to the previous one. */
  reset(): void {
    this.#reported.clear();
  }

  async #option(quality: PictureQuality): Promise<PictureQualityOption> {
    const variant = zoomVariant(quality);
    if (!variant) return { quality, pictures: 0, stored: 0, bytes: 0, basis: 'stored' };
    const { pictures, stored, storedBytes } = this.deps.store.media.zoomStats(variant);
    if (pictures === 0) return { quality, pictures, stored, bytes: 0, basis: 'stored' };
    if (stored > 0)
      return {
        quality,
        pictures,
        stored,
        bytes: Math.round(storedBytes + ((pictures - stored) * storedBytes) / stored),
        basis: 'stored',
      };
    const perPicture = this.#reported.get(variant) ?? (await this.#askSite(variant));
    if (perPicture === null) return { quality, pictures, stored, bytes: null, basis: 'unknown' };
    return { quality, pictures, stored, bytes: Math.round(pictures * perPicture), basis: 'site' };
  }

  /** The average size the site reports for a few pictures of this variant; null offline or when it does not say. */
  async #askSite(variant: 'large' | 'original'): Promise<number | null> {
    if (!this.deps.online()) return null;
    let transport: ApiTransport;
    try {
      transport = this.deps.transport();
    } catch {
      return null; // nobody signed in
    }
    const signal = AbortSignal.timeout(SAMPLE_TIMEOUT_MS);
    const sizes = await Promise.all(
      this.deps.store.media
        .zoomSample(variant, SAMPLE)
        .map((url) => transport.probeSize(url, signal).catch(() => null)),
    );
    const known = sizes.filter((size): size is number => size !== null);
    if (known.length === 0) return null;
    const average = known.reduce((sum, size) => sum + size, 0) / known.length;
    this.#reported.set(variant, average);
    return average;
  }
}
