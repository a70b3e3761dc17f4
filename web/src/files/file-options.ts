import type { FileOption } from '#shared/schemas/files';

/** One option row of the file list dialog: a stored option, or a new one, maybe with a local file. */
export interface OptionRow {
  /** stable React key */
  key: string;
  id?: number;
  name: string;
  path: string;
  mediaType: string;
  file: File | null;
  /** short-lived download link of the stored file */
  url?: string;
}

let seq = 0;
export const newOptionRow = (): OptionRow => ({ key: `new-${++seq}`, name: '', path: '', mediaType: '', file: null });

export const rowsFromOptions = (options: FileOption[]): OptionRow[] =>
  options.map((o) => ({
    key: `opt-${o.id}`,
    id: o.id,
    name: o.name,
    path: o.path,
    mediaType: o.mediaType,
    file: null,
  }));

const STORED_PREFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/i;

/**
 * What the row shows beside its picker: the chosen file's name, else the stored path's file name
 * (without the unique prefix storage gives it).
 */
export const shownFileName = (row: Pick<OptionRow, 'file' | 'path'>) =>
  row.file ? row.file.name : row.path ? (row.path.split('/').pop() ?? row.path).replace(STORED_PREFIX, '') : '';

/**
 * The options of the save body. Rows with neither a description nor a file are dropped (an empty
 * "add option" click saves nothing); `uploaded` holds the storage keys of the rows' new files.
 */
export function optionsBody(rows: OptionRow[], uploaded: Map<string, { key: string; mimetype: string }>) {
  return rows
    .filter((r) => r.name.trim() || r.file || r.path)
    .map((r) => {
      const up = uploaded.get(r.key);
      return {
        ...(r.id ? { id: r.id } : {}),
        name: r.name.trim(),
        path: up ? up.key : r.path,
        mediaType: up ? up.mimetype : r.mediaType,
      };
    });
}

/** The title shows how many lists are loaded (management.md "Files"). */
export const titleWithCount = (title: string, count: number) => `${title} (${count})`;
