import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_MAX_FILE_BYTES, type KnowledgeArticle } from '#shared/schemas/knowledge';
import { articleToForm, cleanTags, emptyForm, fileProblem, formBody, rowMatches } from './knowledge-form';

const upload = { key: 'company1/media/abc-manual.pdf', fileName: 'manual.pdf' };

describe('knowledge dialog body', () => {
  it('a new article sends its text; a new document its uploaded file and no body', () => {
    const article = { ...emptyForm('article'), title: 'Trocas', body: 'Até 30 dias.', tags: ['trocas'] };
    expect(formBody(article, { editing: false })).toEqual({
      ok: true,
      body: { title: 'Trocas', body: 'Até 30 dias.', tags: ['trocas'], language: 'pt', status: 'published' },
    });
    const document = { ...emptyForm('document'), title: 'Manual', body: 'ignored' };
    expect(formBody(document, { editing: false, upload })).toEqual({
      ok: true,
      body: { title: 'Manual', upload, tags: [], language: 'pt', status: 'published' },
    });
  });

  it('a new document without a file, or an article without text, is refused with the field to fix', () => {
    expect(formBody({ ...emptyForm('document'), title: 'Manual' }, { editing: false })).toMatchObject({
      ok: false,
      errors: { body: 'required' },
    });
    expect(formBody({ ...emptyForm('article'), title: 'ab', body: '' }, { editing: false })).toMatchObject({
      ok: false,
      errors: { title: 'short' },
    });
  });

  it('an edited document keeps its file unless a new one was picked, and never sends a body', () => {
    const doc: KnowledgeArticle = {
      id: 1,
      companyId: 1,
      kind: 'document',
      title: 'Manual',
      body: 'extracted text',
      tags: [],
      language: 'en',
      status: 'draft',
      fileName: 'manual.pdf',
      passages: 0,
      createdAt: '',
      updatedAt: '',
    };
    const form = articleToForm(doc);
    expect(form.body).toBe('');
    expect(formBody(form, { editing: true })).toEqual({
      ok: true,
      body: { title: 'Manual', tags: [], language: 'en', status: 'draft' },
    });
    expect(formBody(form, { editing: true, upload })).toMatchObject({ ok: true, body: { upload } });
  });
});

describe('knowledge files and tags', () => {
  it('PDF, DOCX, text and Markdown are offered; other types, empty and too large files are not', () => {
    for (const name of ['a.pdf', 'B.DOCX', 'c.txt', 'd.md']) expect(fileProblem({ name, size: 10 })).toBeNull();
    expect(fileProblem({ name: 'photo.png', size: 10 })).toBe('type');
    expect(fileProblem({ name: 'old.doc', size: 10 })).toBe('type');
    expect(fileProblem({ name: 'a.pdf', size: 0 })).toBe('empty');
    expect(fileProblem({ name: 'a.pdf', size: KNOWLEDGE_MAX_FILE_BYTES + 1 })).toBe('size');
  });

  it('tags are trimmed, without empties or repeats that differ only in case or accents', () => {
    expect(cleanTags([' Trocas ', 'trocas', '', 'Devolução', 'devolucao', 'frete'])).toEqual([
      'Trocas',
      'Devolução',
      'frete',
    ]);
  });

  it("a live row is kept in a searched list when its title or a tag matches, as the server's search", () => {
    const row = { title: 'Política de Trocas', tags: ['garantia'] };
    expect(rowMatches(row, '')).toBe(true);
    expect(rowMatches(row, 'politica')).toBe(true);
    expect(rowMatches(row, 'GARANTIA')).toBe(true);
    expect(rowMatches(row, 'frete')).toBe(false);
  });
});
