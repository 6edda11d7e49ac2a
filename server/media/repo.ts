import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../db/types.ts';
import type { PictureSpec } from './picture.ts';
import { guidFrom } from '../prng.ts';
import { statement } from '../db/statements.ts';
import type { MediaKind, MediaOwner } from './access.ts';
import { pdfPages } from './pdf.ts';

export interface ImageMeta {
  imageid: number;
  guid: string;
  width: number;
  height: number;
  mime: string;
  spec: string | null;
  ownerid: number | null;
  srcid: number | null;
  markup: string | null;
  exif: string;
  created: number;
}

export interface VideoRow {
  videoid: number;
  guid: string;
  filename: string;
  duration_ms: number;
  width: number;
  height: number;
  imageid: number | null;
  meta: string;
  ownerid: number | null;
  created: number;
}

export interface EncodingMeta {
  videoid: number;
  name: string;
  codecs: string;
  format: string;
  width: number;
  height: number;
  mime: string;
  max_video_bitrate: number | null;
  size: number;
  md5: string;
}

export interface DocumentMeta {
  documentid: number;
  guid: string;
  title: string;
  filename: string;
  mime: string;
  size: number;
  /** Its pages, when known (a PDF's page objects: media/pdf.ts). */
  pages: number | null;
  ownerid: number | null;
  created: number;
}

/** A GUID for something uploaded (not part of a seeded site, so it need not be reproducible). */
export const randomGuid = (): string => guidFrom(randomInt(0, 2 ** 32));

const IMAGE_META = 'imageid, guid, width, height, mime, spec, ownerid, srcid, markup, exif, created';

export function insertPicture(
  db: Db,
  image: { guid: string; width: number; height: number; spec: PictureSpec; ownerid?: number | null; created: number },
): number {
  return Number(
    statement(
      db,
      'INSERT INTO images (guid, width, height, mime, spec, ownerid, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      image.guid,
      image.width,
      image.height,
      'image/png',
      JSON.stringify(image.spec),
      image.ownerid ?? null,
      image.created,
    ).lastInsertRowid,
  );
}

export function insertUploadedImage(
  db: Db,
  image: { width: number; height: number; mime: string; bytes: Buffer; ownerid: number; created: number },
): ImageMeta {
  const id = db
    .prepare('INSERT INTO images (guid, width, height, mime, bytes, ownerid, created) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(
      randomGuid(),
      image.width,
      image.height,
      image.mime,
      image.bytes,
      image.ownerid,
      image.created,
    ).lastInsertRowid;
  return getImageMeta(db, String(id))!;
}

/** By integer id or by GUID, as `GET /media/images/{imageid/GUID}` takes it. */
export function getImageMeta(db: Db, idOrGuid: string): ImageMeta | undefined {
  const byId = /^\d+$/.test(idOrGuid);
  return db
    .prepare(`SELECT ${IMAGE_META} FROM images WHERE ${byId ? 'imageid' : 'guid'} = ?`)
    .get(byId ? Number(idOrGuid) : idOrGuid) as ImageMeta | undefined;
}

export function getImagesMeta(db: Db, ids: readonly number[]): Map<number, ImageMeta> {
  const found = new Map<number, ImageMeta>();
  if (ids.length === 0) return found;
  const rows = db
    .prepare(`SELECT ${IMAGE_META} FROM images WHERE imageid IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids));
  for (const row of rows as ImageMeta[]) found.set(row.imageid, row);
  return found;
}

export function getUploadedImageBytes(db: Db, imageid: number): Buffer | undefined {
  return (
    (db.prepare('SELECT bytes FROM images WHERE imageid = ?').get(imageid) as { bytes: Buffer | null } | undefined)
      ?.bytes ?? undefined
  );
}

export interface NewEncoding {
  name: string;
  codecs: string;
  format: string;
  width: number;
  height: number;
  mime: string;
  max_video_bitrate?: number;
  bytes: Buffer;
}

export function insertVideo(
  db: Db,
  video: {
    guid: string;
    filename: string;
    duration_ms: number;
    width: number;
    height: number;
    frame_rate: number;
    imageid: number | null;
    ownerid?: number | null;
    created: number;
    encodings: NewEncoding[];
  },
): number {
  const first = video.encodings[0];
  const seconds = Math.max(0.001, video.duration_ms / 1000);
  const kbps = first ? Math.round((first.bytes.length * 8) / seconds / 1000) : 0;
  const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
  const meta = {
    audio_bitrate_in_kbps: null,
    audio_codec: null,
    audio_sample_rate: null,
    channels: null,
    duration_in_ms: video.duration_ms,
    file_size_in_bytes: first?.bytes.length ?? 0,
    format: first?.format ?? null,
    frame_rate: video.frame_rate,
    height: video.height,
    id: 0,
    md5_checksum: first ? md5(first.bytes) : null,
    state: 'finished',
    total_bitrate_in_kbps: kbps,
    video_bitrate_in_kbps: kbps,
    video_codec: first?.codecs.split('.')[0] ?? null,
    width: video.width,
  };
  const videoid = Number(
    db
      .prepare(
        'INSERT INTO videos (guid, filename, duration_ms, width, height, ' +
          'imageid, meta, ownerid, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        video.guid,
        video.filename,
        video.duration_ms,
        video.width,
        video.height,
        video.imageid,
        '{}',
        video.ownerid ?? null,
        video.created,
      ).lastInsertRowid,
  );
  db.prepare('UPDATE videos SET meta = ? WHERE videoid = ?').run(JSON.stringify({ ...meta, id: videoid }), videoid);
  const insert = db.prepare(
    `INSERT INTO video_encodings (videoid, name, codecs, format, width, height, mime, max_video_bitrate, size, md5,
       bytes)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of video.encodings) {
    insert.run(
      videoid,
      e.name,
      e.codecs,
      e.format,
      e.width,
      e.height,
      e.mime,
      e.max_video_bitrate ?? null,
      e.bytes.length,
      md5(e.bytes),
      e.bytes,
    );
  }
  return videoid;
}

export function getVideo(db: Db, idOrGuid: string): VideoRow | undefined {
  const byId = /^\d+$/.test(idOrGuid);
  return db
    .prepare(`SELECT * FROM videos WHERE ${byId ? 'videoid' : 'guid'} = ?`)
    .get(byId ? Number(idOrGuid) : idOrGuid) as VideoRow | undefined;
}

export function getEncodings(db: Db, videoid: number): EncodingMeta[] {
  return db
    .prepare(
      'SELECT videoid, name, codecs, format, width, height, mime, max_video_bitrate, size, md5 ' +
        'FROM video_encodings WHERE videoid = ? ORDER BY width, name',
    )
    .all(videoid) as EncodingMeta[];
}

export function getEncodingBytes(db: Db, guid: string, name: string): { mime: string; bytes: Buffer } | undefined {
  return db
    .prepare(
      'SELECT e.mime, e.bytes FROM video_encodings e JOIN videos v USING (videoid) WHERE v.guid = ? AND e.name = ?',
    )
    .get(guid, name) as { mime: string; bytes: Buffer } | undefined;
}

export function insertDocument(
  db: Db,
  doc: {
    guid?: string;
    title: string;
    filename: string;
    mime: string;
    bytes: Buffer;
    ownerid?: number | null;
    created: number;
  },
): number {
  return Number(
    db
      .prepare(
        'INSERT INTO documents (guid, title, filename, mime, bytes, pages, ownerid, created) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        doc.guid ?? randomGuid(),
        doc.title,
        doc.filename,
        doc.mime,
        doc.bytes,
        pdfPages(doc.bytes),
        doc.ownerid ?? null,
        doc.created,
      ).lastInsertRowid,
  );
}

const DOCUMENT_META = 'documentid, guid, title, filename, mime, length(bytes) AS size, pages, ownerid, created';

export function getDocumentsMeta(db: Db, ids: readonly number[]): DocumentMeta[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${DOCUMENT_META} FROM documents WHERE documentid IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as DocumentMeta[];
  const byId = new Map(rows.map((row) => [row.documentid, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function getDocumentMeta(db: Db, documentid: number): DocumentMeta | undefined {
  return db.prepare(`SELECT ${DOCUMENT_META} FROM documents WHERE documentid = ?`).get(documentid) as
    DocumentMeta | undefined;
}

export function getDocumentFile(
  db: Db,
  guid: string,
): { documentid: number; ownerid: number | null; mime: string; filename: string; bytes: Buffer } | undefined {
  return db.prepare('SELECT documentid, ownerid, mime, filename, bytes FROM documents WHERE guid = ?').get(guid) as
    { documentid: number; ownerid: number | null; mime: string; filename: string; bytes: Buffer } | undefined;
}

const OWNER_BY_GUID: Record<MediaKind, string> = {
  image: 'SELECT imageid AS id, ownerid FROM images WHERE guid = ?',
  video: 'SELECT videoid AS id, ownerid FROM videos WHERE guid = ?',
  document: 'SELECT documentid AS id, ownerid FROM documents WHERE guid = ?',
};

/** A media object's id and uploader by its GUID (what its file addresses name), as access needs them. */
export function mediaOwnerByGuid(db: Db, kind: MediaKind, guid: string): MediaOwner | undefined {
  return statement(db, OWNER_BY_GUID[kind]).get(guid) as MediaOwner | undefined;
}
