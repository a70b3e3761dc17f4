import type { FileList } from '#shared/schemas/files';
import { getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/** A file list: pk `C#<cid>`, sk `FILELIST#<pad(id)>`, its options inline (a few files each). */
export const fileListKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `FILELIST#${pad(id)}` });
export const fileListItem = (f: FileList): Item => ({
  ...fileListKeys(f.companyId, f.id),
  ...f,
  nameLower: f.name.toLowerCase(),
});
export const toFileList = (item: Item): FileList => {
  const { nameLower: _n, ...rest } = stripKeys(item) as Item;
  return rest as FileList;
};

export async function getFileList(companyId: number, id: number): Promise<FileList | undefined> {
  const item = await getItem(fileListKeys(companyId, id));
  return item ? toFileList(item) : undefined;
}

export async function requireFileList(companyId: number, id: number): Promise<FileList> {
  const found = await getFileList(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  return found;
}
