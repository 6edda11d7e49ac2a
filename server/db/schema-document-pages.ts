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
    // One file in memory at a time: a site's documents may be large.
    const ids = db.prepare('SELECT documentid FROM documents').pluck().all() as number[];
    const bytes = db.prepare('SELECT bytes FROM documents WHERE documentid = ?').pluck();
    const set = db.prepare('UPDATE documents SET pages = ? WHERE documentid = ?');
    for (const id of ids) set.run(pdfPages(bytes.get(id) as Buffer), id);
  },
};
