import type Database from 'better-sqlite3';

/**
 * Every technician's work is theirs (DESIGN.md §3): a laptop is shared by a workshop.
 * - `technicians`: everyone whose work is on this computer, by site (`demo`, or the site's address) and
 *   the site's userid. Their tokens are sealed in files of their own (connection/credentials.ts), never here.
 *   `signed_in_at` is null for someone known only from older rows; `refused_at` is when the site last
 *   refused their token (their work waits until they sign in again).
 * - `technician` on sessions, attachments, the outbox, conflicts and quiz attempts: who did it. Null only
 *   for rows of an earlier version whose maker cannot be known: those are held aside, never sent.
 * - `guides.author_userid`: with `public`, who may read a private guide (admins and its author, as the site).
 *
 * Rows of earlier versions are given to their maker: a session (and its actions, upload and conflicts) to
 * the user it was started or taken over by, a quiz attempt to the user who was signed in. The signed-in
 * user becomes the current technician.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE technicians (
      id INTEGER PRIMARY KEY,
      site TEXT NOT NULL,
      userid INTEGER NOT NULL,
      username TEXT NOT NULL,
      unique_username TEXT,
      image_url TEXT,
      privileges TEXT NOT NULL DEFAULT '[]',
      email TEXT,
      signed_in_at INTEGER,
      refused_at INTEGER,
      UNIQUE (site, userid)
    ) STRICT;
    CREATE INDEX technicians_email ON technicians(site, email);

    ALTER TABLE work_sessions ADD COLUMN technician INTEGER REFERENCES technicians(id);
    ALTER TABLE attachments ADD COLUMN technician INTEGER REFERENCES technicians(id);
    ALTER TABLE outbox ADD COLUMN technician INTEGER REFERENCES technicians(id);
    ALTER TABLE conflicts ADD COLUMN technician INTEGER REFERENCES technicians(id);
    ALTER TABLE quiz_attempts ADD COLUMN technician INTEGER REFERENCES technicians(id);
    CREATE INDEX work_sessions_technician ON work_sessions(technician, created_at);
    CREATE INDEX outbox_technician ON outbox(technician, state);
    CREATE INDEX conflicts_technician ON conflicts(technician, settled);
    CREATE INDEX quiz_attempts_technician ON quiz_attempts(technician, finished_at);

    ALTER TABLE guides ADD COLUMN author_userid INTEGER;
    -- Counting a library page for a technician reads who may see each guide from this index, not the table.
    CREATE INDEX guides_readers ON guides(public, author_userid);
  `);
  assignEarlierWork(db);
}

interface EarlierUser {
  userid: number;
  username: string;
  uniqueUsername: string | null;
  privileges: string[];
  imageUrl: string | null;
}

function setting<T>(db: Database.Database, key: string): T | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (!row) return null;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return null;
  }
}

function assignEarlierWork(db: Database.Database): void {
  const site = setting<{ url?: unknown; demo?: unknown }>(db, 'site');
  const user = setting<EarlierUser>(db, 'user');
  const pausedFor = setting<string>(db, 'outbox.pausedFor');
  db.prepare("DELETE FROM settings WHERE key IN ('user', 'outbox.pausedFor')").run();
  if (!site || typeof site.url !== 'string') return;
  const siteKey = site.demo === true ? 'demo' : site.url;
  const now = Math.floor(Date.now() / 1000);

  const insert = db.prepare(
    `INSERT INTO technicians (site, userid, username, unique_username, image_url, privileges, signed_in_at, refused_at)
     VALUES (@site, @userid, @username, @uniqueUsername, @imageUrl, @privileges, @signedInAt, @refusedAt)
     ON CONFLICT (site, userid) DO NOTHING`,
  );
  if (user && typeof user.userid === 'number') {
    insert.run({
      site: siteKey,
      userid: user.userid,
      username: String(user.username ?? `User ${user.userid}`),
      uniqueUsername: user.uniqueUsername ?? null,
      imageUrl: user.imageUrl ?? null,
      privileges: JSON.stringify(Array.isArray(user.privileges) ? user.privileges : []),
      signedInAt: now,
      // The site had refused that sign-in: the work waits until they sign in again.
      refusedAt: pausedFor === 'unauthorized' ? now : null,
    });
  }
  for (const { userid } of db.prepare('SELECT DISTINCT userid FROM work_sessions').all() as { userid: number }[]) {
    insert.run({
      site: siteKey,
      userid,
      username: `User ${userid}`,
      uniqueUsername: null,
      imageUrl: null,
      privileges: '[]',
      signedInAt: null,
      refusedAt: null,
    });
  }

  const technicianOf = '(SELECT id FROM technicians WHERE site = @site AND userid = work_sessions.userid)';
  db.prepare(`UPDATE work_sessions SET technician = ${technicianOf}`).run({ site: siteKey });
  const ofSession = (table: string, column: string) =>
    db
      .prepare(`UPDATE ${table} SET technician = (SELECT technician FROM work_sessions WHERE id = ${table}.${column})`)
      .run();
  ofSession('attachments', 'session_id');
  ofSession('conflicts', 'session_id');
  ofSession('outbox', 'chain');

  const signedIn = user
    ? (db.prepare('SELECT id FROM technicians WHERE site = ? AND userid = ?').get(siteKey, user.userid) as
        { id: number } | undefined)
    : undefined;
  if (!signedIn) return;
  db.prepare('UPDATE quiz_attempts SET technician = ?').run(signedIn.id);
  db.prepare("UPDATE outbox SET technician = ? WHERE chain LIKE 'quiz:%'").run(signedIn.id);
  const put = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  put.run('technicians.current', JSON.stringify(signedIn.id));
  // Drafts the window kept before technicians were recorded were this technician's (src/drafts).
  put.run('technicians.earlierDrafts', JSON.stringify(signedIn.id));
}
