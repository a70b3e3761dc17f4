import { PAGE_SIZE } from '#shared/constants';
import type { FileList, FileOption } from '#shared/schemas/files';
import { AppError } from '../errors';
import { deleteItem, putItem, query } from '../db';
import { decodeCursor, page } from '../cursor';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { acceptStoredUpload, assertTenantKey, deleteObject, presignGet, storeUploads } from '../storage';
import type { UploadedFile } from '../multipart';
import { fileListItem, requireFileList, toFileList } from './repo';

type OptionInput = { id?: number; name: string; path?: string | null; mediaType?: string | null };

async function present(f: FileList): Promise<FileList> {
  return {
    ...f,
    options: await Promise.all(
      f.options.map(async (o) => ({ ...o, ...(o.path ? { url: await presignGet(f.companyId, o.path) } : {}) })),
    ),
  };
}

/**
 * The options as saved: an existing option keeps its file unless a new key is given; a new key must
 * be an upload of this company that passes the upload policy (its type is read from the object).
 */
async function resolveOptions(companyId: number, current: FileOption[], input: OptionInput[]): Promise<FileOption[]> {
  const byId = new Map(current.map((o) => [o.id, o]));
  let nextOptionId = Math.max(0, ...current.map((o) => o.id)) + 1;
  const out: FileOption[] = [];
  for (const o of input) {
    const before = o.id ? byId.get(o.id) : undefined;
    let path = before?.path ?? '';
    let mediaType = before?.mediaType ?? '';
    if (o.path && o.path !== before?.path) {
      assertTenantKey(companyId, o.path);
      const accepted = await acceptStoredUpload(companyId, o.path, o.path.split('/').pop() ?? 'file');
      path = o.path;
      mediaType = accepted.mimetype;
    }
    out.push({ id: before?.id ?? nextOptionId++, name: o.name, path, mediaType });
  }
  return out;
}

export async function createFileList(
  companyId: number,
  userId: number,
  body: { name: string; message: string; options: OptionInput[] },
) {
  const id = await nextId(companyScope(companyId), 'fileList');
  const now = nowIso();
  const list: FileList = {
    id,
    companyId,
    userId,
    name: body.name,
    message: body.message,
    options: await resolveOptions(companyId, [], body.options),
    createdAt: now,
    updatedAt: now,
  };
  await putItem(fileListItem(list), { ifNotExists: true });
  const shown = await present(list);
  await publish(companyId, 'file', { action: 'create', files: shown, fileId: id });
  return shown;
}

export async function updateFileList(
  companyId: number,
  id: number,
  body: { name: string; message: string; options: OptionInput[] },
) {
  const before = await requireFileList(companyId, id);
  const options = await resolveOptions(companyId, before.options, body.options);
  const after: FileList = { ...before, name: body.name, message: body.message, options, updatedAt: nowIso() };
  await putItem(fileListItem(after));
  const kept = new Set(options.map((o) => o.path));
  for (const o of before.options) if (o.path && !kept.has(o.path)) await deleteObject(o.path).catch(() => undefined);
  const shown = await present(after);
  await publish(companyId, 'file', { action: 'update', files: shown, fileId: id });
  return shown;
}

export async function deleteFileList(companyId: number, id: number) {
  const before = await requireFileList(companyId, id);
  await deleteItem({ pk: `C#${companyId}`, sk: fileListItem(before).sk });
  for (const o of before.options) if (o.path) await deleteObject(o.path).catch(() => undefined);
  await publish(companyId, 'file', { action: 'delete', fileId: id });
}

export const getFileListShown = async (companyId: number, id: number) => present(await requireFileList(companyId, id));

export async function listFileLists(companyId: number, f: { searchParam?: string; cursor?: string; limit?: number }) {
  const where = { pk: `C#${companyId}`, sk: { beginsWith: 'FILELIST#' } };
  const out = await query({
    ...where,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(f.searchParam
      ? { filter: 'contains(#n, :q)', filterNames: { '#n': 'nameLower' }, filterValues: { ':q': f.searchParam } }
      : {}),
  });
  const paged = await page(
    companyId,
    await Promise.all(out.items.map((i) => present(toFileList(i)))),
    out.lastKey,
    where,
  );
  return { files: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/**
 * POST /files/uploadList/{id} (multipart: files, and per file the option `id` and `name`, plain for
 * one file or JSON arrays in file order for several):
 * small files through the API; each passes the upload policy and replaces its option's file.
 */
export async function uploadFileListFiles(
  companyId: number,
  id: number,
  files: UploadedFile[],
  fields: Record<string, string | string[]>,
) {
  const before = await requireFileList(companyId, id);
  if (!files.length) throw new AppError('ERR_VALIDATION', 400, [{ path: ['files'], message: 'required' }]);
  const stored = await storeUploads(companyId, 'files', files);
  // a form field holds one value (a repeated name keeps the last): several files name their options
  // with JSON arrays in file order (`id: "[3,4]"`, `name: '["Preços","Foto"]'`); one file, plain values
  const list = (v: string | string[] | undefined): string[] => {
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    if (v.trim().startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(v);
        if (Array.isArray(parsed)) return parsed.map((x) => String(x ?? ''));
      } catch {
        throw new AppError('ERR_VALIDATION', 400, [{ path: ['id'], message: 'invalid' }]);
      }
    }
    return [v];
  };
  const ids = list(fields.id).map(Number);
  const names = list(fields.name);
  const options = [...before.options];
  let nextOptionId = Math.max(0, ...options.map((o) => o.id)) + 1;
  stored.forEach((s, i) => {
    const at = options.findIndex((o) => o.id === ids[i]);
    const option = {
      id: at >= 0 ? options[at]!.id : nextOptionId++,
      name: names[i] ?? options[at]?.name ?? '',
      path: s.key,
      mediaType: s.mimetype,
    };
    if (at >= 0) options[at] = option;
    else options.push(option);
  });
  const after: FileList = { ...before, options, updatedAt: nowIso() };
  await putItem(fileListItem(after));
  const shown = await present(after);
  await publish(companyId, 'file', { action: 'update', files: shown, fileId: id });
  return shown;
}
