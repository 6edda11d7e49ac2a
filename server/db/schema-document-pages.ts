import { pdfPages } from '../media/pdf.ts';
import type { SchemaModule } from './types.ts';

/**
 * A document's page count (`pages` in iFixit's Document), counted once when it is stored (media/repo.ts
 * insertDocument) and here for the documents a site file made before it already holds. Null: not known.
 */
export const documentPagesSchema: SchemaModule = {
  name: 'document-pages',
  up(db) {
    db.exec('ALTER TABLE documents ADD COLUMN pages INTEGER');
    const set = db.prepare('UPDATE documents SET pages = ? WHERE documentid = ?');
    const stored = db.prepare('SELECT documentid, bytes FROM documents').iterate() as Iterable<{
      documentid: number;
      bytes: Buffer;
    }>;
    for (const doc of [...stored]) set.run(pdfPages(doc.bytes), doc.documentid);
  },
};
