import { describe, expect, it } from 'vitest';
import { KnowledgeBody, KnowledgeUpdateBody } from './knowledge';

describe('knowledge base bodies', () => {
  it('a new article gets the defaults: no tags, Portuguese, published', () => {
    expect(KnowledgeBody.parse({ title: 'Trocas', body: 'Até 30 dias.' })).toEqual({
      title: 'Trocas',
      body: 'Até 30 dias.',
      tags: [],
      language: 'pt',
      status: 'published',
    });
  });

  it('a PUT keeps what it omits: no default fills tags, language or status', () => {
    expect(KnowledgeUpdateBody.parse({ title: 'Trocas e devoluções' })).toEqual({ title: 'Trocas e devoluções' });
  });

  it('an article is a body or an upload, exactly one of them', () => {
    const upload = { key: 'company1/media/x-a.pdf', fileName: 'a.pdf' };
    expect(KnowledgeBody.safeParse({ title: 'Trocas' }).success).toBe(false);
    expect(KnowledgeBody.safeParse({ title: 'Trocas', body: 'x', upload }).success).toBe(false);
    expect(KnowledgeBody.safeParse({ title: 'Trocas', upload }).success).toBe(true);
  });
});
