import { z } from 'zod';
import type { LanguageState, SiteLanguage } from '../../contract.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';

const LEARNED_KEY = 'library.languages';
const CHOSEN_PREFIX = 'language.';
const learnedSchema = z.object({ siteDefault: z.string().nullable(), available: z.array(z.string()) });
const chosenSchema = z
  .string()
  .regex(/^[a-z]{2}$/)
  .nullable();

/** A language's name in its own words (`Deutsch`), as this laptop knows it; the code when it does not. */
export function languageName(langid: string): string {
  try {
    const name = new Intl.DisplayNames([langid], { type: 'language' }).of(langid);
    return name && name !== langid ? name.charAt(0).toLocaleUpperCase(langid) + name.slice(1) : langid;
  } catch {
    return langid;
  }
}

/**
 * The site's languages (learned from its guides: each answer's own `langid` and `available_langids`) and
 * each technician's choice among them, kept per technician: one reads German while another reads
 * English on the same laptop. The sync fetches the guides kept whole in the current technician's language.
 */
export class Languages {
  constructor(
    private readonly deps: {
      settings: SettingsRepo;
      /** Who reads now: the technician's key, or a key for nobody signed in. */
      reader: () => string;
      /** A write on the disk when its promise resolves, the flush made on the thread pool (Store.durable). */
      durable: (write: () => void) => Promise<void>;
    },
  ) {}

  state(): LanguageState {
    const learned = this.#learned();
    const codes = new Set([...(learned.siteDefault ? [learned.siteDefault] : []), ...learned.available]);
    const chosen = this.chosen();
    if (chosen) codes.add(chosen);
    const languages: SiteLanguage[] = [...codes].map((langid) => ({ langid, name: languageName(langid) }));
    return { languages, siteDefault: learned.siteDefault, chosen };
  }

  chosen(): string | null {
    return this.deps.settings.get(CHOSEN_PREFIX + this.deps.reader(), chosenSchema) ?? null;
  }

  /** The language guides are fetched and read in for the current technician, when it is not the site's own. */
  reading(): string | null {
    const chosen = this.chosen();
    return chosen !== null && chosen !== this.#learned().siteDefault ? chosen : null;
  }

  async choose(langid: string | null): Promise<void> {
    const key = CHOSEN_PREFIX + this.deps.reader();
    await this.deps.durable(() => this.deps.settings.set(key, langid));
  }

  /** What a sync learned of the site's languages: its own, and those its guides can be read in. */
  learned(siteDefault: string | null, available: Iterable<string>): void {
    const before = this.#learned();
    const all = [...new Set([...before.available, ...available])].filter((code) => /^[a-z]{2}$/.test(code)).sort();
    this.deps.settings.set(LEARNED_KEY, { siteDefault: siteDefault ?? before.siteDefault, available: all });
  }

  /** Another site: what was learned of this one goes (each technician's choice stays theirs). */
  reset(): void {
    this.deps.settings.delete(LEARNED_KEY);
  }

  #learned(): z.infer<typeof learnedSchema> {
    return this.deps.settings.get(LEARNED_KEY, learnedSchema) ?? { siteDefault: null, available: [] };
  }
}
