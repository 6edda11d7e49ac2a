import fs from 'node:fs';

/**
 * Waits for the disk to hold a database's write-ahead log, on libuv's thread pool: the wait a commit
 * with synchronous=FULL makes on the main thread (SQLite's own fdatasync of the same file). A flush
 * covers every frame in the log when it starts, so a commit that did not wait for the disk is durable
 * once the flush that followed it resolves. A checkpoint that moved those frames into the database
 * first flushed the log itself (SQLite syncs the log before each checkpoint and the database after).
 *
 * The log's file handle is opened at the first flush (after a commit, so the file exists) and kept: the
 * connection holds the log for as long as it is open. On close it is released once no flush is out,
 * so a flush never runs on a handle number the process has since given to another file.
 */
export class WalFlush {
  #fd: number | null = null;
  #out = 0;
  #closed = false;

  constructor(private readonly databaseFile: string) {}

  flush(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('The database is closed.'));
    let fd: number;
    try {
      // Opened for writing: Windows flushes only a handle with write access (nothing is written through it).
      fd = this.#fd ??= fs.openSync(`${this.databaseFile}-wal`, 'r+');
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.#out++;
    return new Promise<void>((resolve, reject) => {
      fs.fdatasync(fd, (error) => {
        this.#out--;
        this.#release();
        if (error) reject(error);
        else resolve();
      });
    });
  }

  close(): void {
    this.#closed = true;
    this.#release();
  }

  #release(): void {
    if (!this.#closed || this.#out > 0 || this.#fd === null) return;
    fs.closeSync(this.#fd);
    this.#fd = null;
  }
}
