import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { FileListBody, FilesQuery } from '#shared/schemas/files';
import { readMultipart, MESSAGE_FORM } from '#lib/multipart';
import {
  createFileList,
  deleteFileList,
  getFileListShown,
  listFileLists,
  updateFileList,
  uploadFileListFiles,
} from '#lib/files/service';

const params = z.object({ id: idParam });

/** File lists (management.md "Files", 7): options holding a file each, in S3 under the company prefix. */
export const handler = httpModule({
  'GET /files': route({ query: FilesQuery }, async ({ auth, query }) => listFileLists(auth.companyId, query)),
  'GET /files/{id}': route({ params }, async ({ auth, params }) => getFileListShown(auth.companyId, params.id)),
  'POST /files': route({ body: FileListBody }, async ({ auth, body }) =>
    reply(await createFileList(auth.companyId, auth.userId, body), 201),
  ),
  'PUT /files/{id}': route({ params, body: FileListBody }, async ({ auth, params, body }) =>
    updateFileList(auth.companyId, params.id, body),
  ),
  'DELETE /files/{id}': route({ params }, async ({ auth, params }) => {
    await deleteFileList(auth.companyId, params.id);
    return { message: 'File list deleted' };
  }),
  'POST /files/uploadList/{id}': route({ params }, async ({ auth, params, event }) => {
    const { files, fields } = await readMultipart(event, MESSAGE_FORM);
    return uploadFileListFiles(auth.companyId, params.id, files, fields);
  }),
});
