import type { Db } from '../db/types.ts';
import type { MediaType } from '../db/schema-content.ts';
import { documentJson, imageJson, videoDetailJson } from '../media/json.ts';
import {
  getDocumentMeta,
  getEncodings,
  getImageMeta,
  getVideo,
  insertDocument,
  insertUploadedImage,
  insertVideo,
  randomGuid,
} from '../media/repo.ts';
import { imageSize } from '../media/png.ts';

const KINDS: Record<string, { type: MediaType; mime: string }> = {
  png: { type: 'GuideImage', mime: 'image/png' },
  jpg: { type: 'GuideImage', mime: 'image/jpeg' },
  jpeg: { type: 'GuideImage', mime: 'image/jpeg' },
  gif: { type: 'GuideImage', mime: 'image/gif' },
  mp4: { type: 'GuideVideoObject', mime: 'video/mp4' },
  m4v: { type: 'GuideVideoObject', mime: 'video/mp4' },
  mov: { type: 'GuideVideoObject', mime: 'video/quicktime' },
  webm: { type: 'GuideVideoObject', mime: 'video/webm' },
  pdf: { type: 'Document', mime: 'application/pdf' },
  txt: { type: 'Document', mime: 'text/plain' },
  csv: { type: 'Document', mime: 'text/csv' },
  doc: { type: 'Document', mime: 'application/msword' },
  docx: { type: 'Document', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xls: { type: 'Document', mime: 'application/vnd.ms-excel' },
  xlsx: { type: 'Document', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  odt: { type: 'Document', mime: 'application/vnd.oasis.opendocument.text' },
  zip: { type: 'Document', mime: 'application/zip' },
};

export const extensionOf = (name: string): string => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** The media type a file name stands for (public-shapes.md: images, videos, documents), if any. */
export function kindOf(name: string): { type: MediaType; mime: string } | undefined {
  return KINDS[extensionOf(name)];
}

export function gifSize(bytes: Buffer): { width: number; height: number } | undefined {
  return bytes.length >= 10 && bytes.toString('latin1', 0, 4) === 'GIF8'
    ? { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) }
    : undefined;
}

export interface MediaRow {
  itemid: number;
  userid: number;
  type: MediaType;
  name: string;
  imageid: number | null;
  videoid: number | null;
  documentid: number | null;
  embed: string | null;
  polls: number;
  created: number;
}

/** Stores an upload as the media object of its kind and the user's item for it. A string is a reason to refuse it. */
export function storeUpload(
  db: Db,
  upload: { userid: number; name: string; bytes: Buffer; now: number },
): MediaRow | string {
  const kind = kindOf(upload.name);
  if (!kind) return 'the file type is not one of images, videos or documents';
  const base = { ownerid: upload.userid, created: upload.now };
  let column: 'imageid' | 'videoid' | 'documentid';
  let id: number;
  if (kind.type === 'GuideImage') {
    const size = imageSize(upload.bytes) ?? gifSize(upload.bytes);
    if (!size) return 'not a readable PNG, JPEG or GIF image';
    column = 'imageid';
    id = insertUploadedImage(db, {
      ...size,
      mime: kind.mime,
      bytes: upload.bytes,
      ...base,
      ownerid: upload.userid,
    }).imageid;
  } else if (kind.type === 'GuideVideoObject') {
    const ext = extensionOf(upload.name);
    column = 'videoid';
    id = insertVideo(db, {
      guid: randomGuid(),
      filename: upload.name,
      duration_ms: 0,
      width: 0,
      height: 0,
      frame_rate: 0,
      imageid: null,
      ...base,
      encodings: [
        {
          name: `original.${ext}`,
          codecs: 'unknown',
          format: ext,
          width: 0,
          height: 0,
          mime: kind.mime,
          bytes: upload.bytes,
        },
      ],
    });
  } else {
    column = 'documentid';
    id = insertDocument(db, {
      title: upload.name.replace(/\.[^.]*$/, ''),
      filename: upload.name,
      mime: kind.mime,
      bytes: upload.bytes,
      ...base,
    });
  }
  const itemid = db
    .prepare(`INSERT INTO user_media (userid, type, name, ${column}, created) VALUES (?, ?, ?, ?, ?)`)
    .run(upload.userid, kind.type, upload.name, id, upload.now).lastInsertRowid;
  return getMediaRow(db, Number(itemid))!;
}

export function getMediaRow(db: Db, itemid: number): MediaRow | undefined {
  return db.prepare('SELECT * FROM user_media WHERE itemid = ?').get(itemid) as MediaRow | undefined;
}

/** Deletes the item and the media object behind it. */
export function deleteMedia(db: Db, row: MediaRow): void {
  db.prepare('DELETE FROM user_media WHERE itemid = ?').run(row.itemid);
  if (row.imageid !== null) db.prepare('DELETE FROM images WHERE imageid = ?').run(row.imageid);
  if (row.videoid !== null) db.prepare('DELETE FROM videos WHERE videoid = ?').run(row.videoid);
  if (row.documentid !== null) db.prepare('DELETE FROM documents WHERE documentid = ?').run(row.documentid);
}

/**
 * A user media item (shape decided here: public-shapes.md shows `{id}` only): its type, name and
 * readiness, and the media object under `image`, `video`, `document` or `embed`.
 */
export function mediaItemJson(db: Db, origin: string, row: MediaRow) {
  const ready = row.type !== 'GuideVideoObject' || row.polls > 0;
  const out: Record<string, unknown> = {
    id: row.itemid,
    type: row.type,
    name: row.name,
    userid: row.userid,
    created: row.created,
    ready,
    status: ready ? 'ready' : 'processing',
  };
  if (row.imageid !== null) {
    const image = getImageMeta(db, String(row.imageid));
    if (image) out.image = { ...imageJson(origin, image), width: image.width, height: image.height };
  }
  if (row.videoid !== null) {
    const video = getVideo(db, String(row.videoid));
    if (video) out.video = videoDetailJson(origin, video, getEncodings(db, video.videoid), undefined);
  }
  if (row.documentid !== null) {
    const doc = getDocumentMeta(db, row.documentid);
    if (doc) out.document = documentJson(origin, doc);
  }
  if (row.embed !== null) out.embed = JSON.parse(row.embed) as unknown;
  return out;
}
