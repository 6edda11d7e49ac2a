import path from 'node:path';
import { z } from 'zod';
import { ownerFolder } from '../db/owner-only.ts';
import { makeVerifier, matchesToken, matchesVerifier } from './password-verifier.ts';
import { FileSecretStore, type SecretCodec } from './secret-store.ts';

const secretSchema = z.object({ token: z.string().min(1), verifier: z.string().nullable() });
type Secret = z.infer<typeof secretSchema>;

/**
 * Each technician's sign-in on this computer, sealed by the shell's codec (safeStorage in the desktop app)
 * in a file of its own, `technicians/<id>.sealed`: their API token, and a verifier of their password
 * (scrypt, salted) so they can come back to the laptop while the site is out of reach. Forgetting one
 * technician's sign-in deletes their file only. Nothing here leaves the core: the token goes into that
 * technician's transport and nowhere else.
 */
export class Credentials {
  readonly #dir: string;
  readonly #cache = new Map<number, Secret | null>();

  constructor(
    dataDir: string,
    private readonly codec: SecretCodec,
  ) {
    this.#dir = path.join(dataDir, 'technicians');
  }

  token(id: number): string | null {
    return this.#read(id)?.token ?? null;
  }

  has(id: number): boolean {
    return this.token(id) !== null;
  }

  /** Keeps a technician's token; with their password, a verifier for signing in again offline. */
  async keep(id: number, token: string, password: string | null): Promise<void> {
    const secret: Secret = { token, verifier: password === null ? null : await makeVerifier(password) };
    this.#store(id).write(JSON.stringify(secret));
    this.#cache.set(id, secret);
  }

  /** Whether `password` is the one this technician last signed in with here (only while their token is kept). */
  async passwordMatches(id: number, password: string): Promise<boolean> {
    const verifier = this.#read(id)?.verifier;
    return verifier ? matchesVerifier(password, verifier) : false;
  }

  tokenMatches(id: number, token: string): boolean {
    const kept = this.token(id);
    return kept !== null && matchesToken(token, kept);
  }

  /** Forgets one technician's sign-in; answers the token it held (to revoke on the site), if any. */
  forget(id: number): string | null {
    const token = this.token(id);
    this.#store(id).clear();
    this.#cache.set(id, null);
    return token;
  }

  /** The one token of the version before technicians (`token.sealed`), handed to the technician it belonged to. */
  adoptEarlierToken(dataDir: string, id: number | null): void {
    const earlier = new FileSecretStore(path.join(dataDir, 'token.sealed'), this.codec);
    const token = earlier.read();
    if (token && id !== null && !this.has(id)) {
      this.#store(id).write(JSON.stringify({ token, verifier: null } satisfies Secret));
      this.#cache.delete(id);
    }
    earlier.clear();
  }

  #store(id: number): FileSecretStore {
    ownerFolder(this.#dir);
    return new FileSecretStore(path.join(this.#dir, `${id}.sealed`), this.codec);
  }

  #read(id: number): Secret | null {
    if (!this.#cache.has(id)) {
      const raw = this.#store(id).read();
      let secret: Secret | null = null;
      if (raw !== null) {
        try {
          const parsed = secretSchema.safeParse(JSON.parse(raw));
          if (parsed.success) secret = parsed.data;
        } catch {
          // unreadable: as if no sign-in were kept (the technician signs in again)
        }
      }
      this.#cache.set(id, secret);
    }
    return this.#cache.get(id) ?? null;
  }
}
