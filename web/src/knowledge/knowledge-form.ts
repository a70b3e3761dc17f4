import {
  KNOWLEDGE_DOCUMENT_TYPES,
  KNOWLEDGE_MAX_FILE_BYTES,
  KnowledgeBody,
  KnowledgeUpdateBody,
  type KnowledgeArticle,
  type KnowledgeRow,
} from '#shared/schemas/knowledge';
import { foldAccents } from '#shared/fold';
import { fieldErrors } from '../lib/zod-errors';

/** The article dialog's fields as typed. A document has no `body` to type: its text comes from its file. */
export type KnowledgeForm = Pick<KnowledgeArticle, 'kind' | 'title' | 'body' | 'tags' | 'language' | 'status'>;

export const emptyForm = (kind: KnowledgeForm['kind']): KnowledgeForm => ({
  kind,
  title: '',
  body: '',
  tags: [],
  language: 'pt',
  status: 'published',
});

export const articleToForm = (a: KnowledgeArticle): KnowledgeForm => ({
  kind: a.kind,
  title: a.title,
  body: a.kind === 'article' ? a.body : '',
  tags: a.tags,
  language: a.language,
  status: a.status,
});

/** What the file picker offers: the types and extensions the server reads. */
export const DOCUMENT_ACCEPT = [...Object.keys(KNOWLEDGE_DOCUMENT_TYPES), '.pdf', '.docx', '.txt', '.md'].join(',');

const EXTENSIONS = new Set(['pdf', 'docx', 'txt', 'md', 'markdown']);

/** A file the knowledge base can read (by its extension) and small enough; `null` when it is. */
export function fileProblem(file: { name: string; size: number }): 'type' | 'size' | 'empty' | null {
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!EXTENSIONS.has(ext)) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > KNOWLEDGE_MAX_FILE_BYTES) return 'size';
  return null;
}

export type FormCheck = { ok: true; body: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/**
 * The request body of the dialog, checked with the server's schema. A new document needs its
 * uploaded file; an edited document sends a new file only when one was picked (`upload`), never a body.
 */
export function formBody(
  form: KnowledgeForm,
  opts: { editing: boolean; upload?: { key: string; fileName: string } },
): FormCheck {
  const common = { title: form.title, tags: form.tags, language: form.language, status: form.status };
  const content =
    form.kind === 'article' ? { body: form.body } : opts.upload ? { upload: opts.upload } : ({} as object);
  const body = { ...common, ...content };
  const parsed = opts.editing ? KnowledgeUpdateBody.safeParse(body) : KnowledgeBody.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return { ok: true, body: parsed.data };
}

/** Lower case without accents, as the server compares titles and tags with a search. */
const fold = foldAccents;

/** Whether a row a live event brought belongs in the list as searched (the server's rule: title or a tag). */
export const rowMatches = (row: Pick<KnowledgeRow, 'title' | 'tags'>, search: string) =>
  !search || [row.title, ...row.tags].some((text) => fold(text).includes(fold(search.trim())));

/** Tags typed in the tags box: trimmed, no empties, no repeats (case ignored), the first spelling kept. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(fold(tag))) continue;
    seen.add(fold(tag));
    out.push(tag);
  }
  return out;
}
