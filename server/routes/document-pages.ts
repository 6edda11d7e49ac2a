import type { RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { fileResponse } from '../media/file-response.ts';
import { getDocumentFile } from '../media/repo.ts';

/**
 * The site's page for a document (a Document's `view_url`, `/Document/<guid>/<filename>`): where a
 * browser opens it online. This server shows the file itself there, inline.
 */
export const documentPagesRoutes: RouteModule = (_api, ctx, site) => {
  site.get('/Document/:guid/:filename', (c) => {
    const found = getDocumentFile(ctx.db, c.req.param('guid'));
    if (!found || found.filename !== c.req.param('filename')) throw notFound('No such document');
    const ascii = found.filename.replace(/[^\x20-\x7e]|"/g, '_');
    return fileResponse(c, found.bytes, found.mime, { 'Content-Disposition': `inline; filename="${ascii}"` });
  });
};
