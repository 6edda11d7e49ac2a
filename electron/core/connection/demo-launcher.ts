/** A running demo workshop: the reference server on a loopback port, started by the shell. */
export interface DemoSite {
  /** The site's address (no `/api/2.0`). */
  url: string;
  /** The technician account the demo signs in with. */
  account: { email: string; password: string };
  close(): Promise<void>;
}

/** Starts the built-in demo workshop the first time it is wanted, and stops it with the app. */
export class DemoLauncher {
  #site: DemoSite | null = null;

  constructor(
    private readonly startDemoWorkshop: (dataDir: string) => Promise<DemoSite>,
    private readonly dataDir: string,
  ) {}

  async site(): Promise<DemoSite> {
    this.#site ??= await this.startDemoWorkshop(this.dataDir);
    return this.#site;
  }

  /** The demo accounts' password, once the demo workshop has started. */
  password(): string | null {
    return this.#site?.account.password ?? null;
  }

  async close(): Promise<void> {
    await this.#site?.close();
    this.#site = null;
  }
}
