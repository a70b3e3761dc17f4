import { describe, expect, it } from 'vitest';
import { docxOf, pdfOf } from '../documents';
import { withoutFeature } from './ai-support';
import { createUser } from './fixtures';
import { api, newCompany, realtimeClient, table, type TestCompany } from './helpers';

/**
 * The knowledge base (issue 39, functions/lib/knowledge/service.ts): articles and documents kept as
 * passages of one live generation each (the LIVE item), managed by admins over HTTP, retrieved by
 * `POST /knowledge/search`, never seen by another company.
 */
const pad = (n: number, width = 10) => String(n).padStart(width, '0');
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const ok = (res: { status: number; body: any }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

const RETURNS =
  'Você pode devolver qualquer produto em até 30 dias corridos após o recebimento, sem custo.\n\n' +
  'O reembolso cai no mesmo meio de pagamento em até 5 dias úteis depois que o produto chega ao nosso centro.';

async function createArticle(co: TestCompany, fields: Record<string, unknown> = {}) {
  return ok(
    await api('POST', '/knowledge', {
      token: co.adminToken,
      body: { title: 'Política de trocas', body: RETURNS, tags: ['Trocas', 'Devolução'], language: 'pt', ...fields },
    }),
    201,
    'create article',
  );
}

/** Uploads a file the way the app does: `POST /uploads`, then the presigned POST to storage. */
async function upload(co: TestCompany, fileName: string, contentType: string, data: Buffer) {
  const ticket = ok(
    await api('POST', '/uploads', { token: co.adminToken, body: { fileName, contentType, size: data.length } }),
    201,
    `upload ticket ${fileName}`,
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(data)]), fileName);
  const stored = await fetch(ticket.url, { method: 'POST', body: form });
  if (!stored.ok) throw new Error(`storage refused ${fileName}: ${stored.status}`);
  return { key: ticket.key as string, fileName };
}

const search = async (co: TestCompany, question: string) =>
  ok(await api('POST', '/knowledge/search', { token: co.adminToken, body: { question } }), 200, 'search').passages as {
    articleId: number;
    title: string;
    text: string;
    score: number;
  }[];

/** What the table holds for the knowledge base of a company: article items, passages, the LIVE item. */
async function stored(companyId: number, articleId: number) {
  const kb = await table().query(`C#${companyId}#KB`);
  return {
    article: await table().get(`C#${companyId}`, `KB#${pad(articleId)}`),
    passages: kb.filter((i) => (i.sk as string).startsWith(`P#${pad(articleId)}#`)),
    live: kb.find((i) => i.sk === 'LIVE') as { v: number; live: Record<string, number> } | undefined,
  };
}

async function trail(co: TestCompany, action: string) {
  return ok(await api('GET', `/audit?action=${action}`, { token: co.adminToken }), 200, 'audit').entries as {
    actorId: number;
    target: { type: string; id: number; name: string };
    changes: Record<string, unknown> | null;
  }[];
}

describe('knowledge base: articles', () => {
  it('create, read, update and delete: the answer, the stored items, the live generation, the event to admins and the audit trail', async () => {
    const co = await newCompany('kb-crud');
    const agent = await createUser(co);
    const admins = await realtimeClient(co.adminToken);
    const agents = await realtimeClient(agent.token);
    const event = `company-${co.companyId}-knowledge`;

    const created = await createArticle(co);
    expect(created).toMatchObject({
      companyId: co.companyId,
      kind: 'article',
      title: 'Política de trocas',
      body: RETURNS,
      tags: ['Trocas', 'Devolução'],
      language: 'pt',
      status: 'published',
      passages: 1,
    });
    let db = await stored(co.companyId, created.id);
    expect(db.article).toMatchObject({ title: 'Política de trocas', body: RETURNS, status: 'published' });
    const firstGen = db.article!.gen as number;
    expect(db.live!.live[String(created.id)]).toBe(firstGen);
    expect(db.passages.map((p) => [p.gen, p.title, p.language])).toEqual([[firstGen, 'Política de trocas', 'pt']]);
    // two short paragraphs make one passage (passages.ts)
    expect(db.passages[0]!.text).toBe(RETURNS.replace('\n\n', '\n'));
    const onCreate = await admins.waitFor((e) => e.event === event && e.data.action === 'create');
    expect(onCreate.data).toMatchObject({ articleId: created.id, article: { title: 'Política de trocas' } });
    expect(onCreate.data.article.body).toBeUndefined();

    expect(ok(await api('GET', `/knowledge/${created.id}`, { token: co.adminToken }), 200, 'get')).toEqual(created);
    const list = ok(await api('GET', '/knowledge', { token: co.adminToken }), 200, 'list');
    expect(list.articles).toHaveLength(1);
    expect(list.articles[0]).toMatchObject({ id: created.id, excerpt: expect.stringMatching(/^Você pode devolver/) });
    expect(list.articles[0].body).toBeUndefined();

    // the text changes: a new generation goes live and the old one is deleted
    const newBody = 'Trocas em até 60 dias corridos para clientes do programa de fidelidade, com frete grátis.';
    const updated = ok(
      await api('PUT', `/knowledge/${created.id}`, { token: co.adminToken, body: { body: newBody } }),
      200,
      'update body',
    );
    // what the PUT omits stays as it was
    expect(updated).toMatchObject({
      body: newBody,
      title: 'Política de trocas',
      tags: ['Trocas', 'Devolução'],
      language: 'pt',
      passages: 1,
    });
    db = await stored(co.companyId, created.id);
    const secondGen = db.article!.gen as number;
    expect(secondGen).not.toBe(firstGen);
    expect(db.live!.live[String(created.id)]).toBe(secondGen);
    expect(db.passages.map((p) => [p.gen, p.text])).toEqual([[secondGen, newBody]]);
    const onUpdate = await admins.waitFor((e) => e.event === event && e.data.action === 'update');
    expect(onUpdate.data.article).toMatchObject({ id: created.id, excerpt: newBody });
    expect((await search(co, 'quantos dias tenho para trocar com a fidelidade?'))[0]).toMatchObject({
      articleId: created.id,
      text: newBody,
    });

    // tags are not in the passages: they stay as they are
    const liveBefore = db.live!.v;
    ok(
      await api('PUT', `/knowledge/${created.id}`, { token: co.adminToken, body: { tags: ['fidelidade'] } }),
      200,
      'update tags',
    );
    db = await stored(co.companyId, created.id);
    expect(db.article).toMatchObject({ tags: ['fidelidade'], gen: secondGen });
    expect(db.live!.v).toBe(liveBefore);

    // a draft is not live and is never retrieved; published again, it is
    ok(await api('PUT', `/knowledge/${created.id}`, { token: co.adminToken, body: { status: 'draft' } }), 200, 'draft');
    db = await stored(co.companyId, created.id);
    expect(db.article).toMatchObject({ status: 'draft', gen: null, passages: 0 });
    expect(db.live!.live[String(created.id)]).toBeUndefined();
    expect(db.passages).toEqual([]);
    expect(await search(co, 'trocas fidelidade')).toEqual([]);
    ok(
      await api('PUT', `/knowledge/${created.id}`, { token: co.adminToken, body: { status: 'published' } }),
      200,
      'publish',
    );
    expect((await search(co, 'trocas fidelidade')).map((p) => p.articleId)).toEqual([created.id]);

    const deleted = await api('DELETE', `/knowledge/${created.id}`, { token: co.adminToken });
    expect(deleted.status).toBe(200);
    expect((await api('GET', `/knowledge/${created.id}`, { token: co.adminToken })).status).toBe(404);
    db = await stored(co.companyId, created.id);
    expect(db.article).toBeUndefined();
    expect(db.passages).toEqual([]);
    expect(db.live!.live[String(created.id)]).toBeUndefined();
    expect(await search(co, 'trocas fidelidade')).toEqual([]);
    const onDelete = await admins.waitFor((e) => e.event === event && e.data.action === 'delete');
    expect(onDelete.data).toEqual({ action: 'delete', articleId: created.id });

    // the event is the admins': an agent's socket gets none of it
    expect(agents.events.filter((e) => e.event === event)).toEqual([]);
    admins.close();
    agents.close();

    const [createdEntry] = await trail(co, 'knowledge.created');
    expect(createdEntry).toMatchObject({ actorId: co.admin.id, target: { type: 'knowledge', id: created.id } });
    const updates = await trail(co, 'knowledge.updated');
    expect(updates.map((u) => u.changes)).toEqual(
      expect.arrayContaining([
        { body: 'changed' },
        { tags: { from: ['Trocas', 'Devolução'], to: ['fidelidade'] } },
        { status: { from: 'published', to: 'draft' } },
      ]),
    );
    expect(await trail(co, 'knowledge.deleted')).toHaveLength(1);
  });

  it('a draft is created without passages; the list searches titles and tags (case and accents ignored) and pages by cursor', async () => {
    const co = await newCompany('kb-list');
    const draft = await createArticle(co, { title: 'Garantia estendida', tags: ['GARANTIA'], status: 'draft' });
    expect(draft).toMatchObject({ status: 'draft', passages: 0 });
    expect((await stored(co.companyId, draft.id)).passages).toEqual([]);
    await createArticle(co, { title: 'Horário de atendimento', tags: ['horários'] });
    await createArticle(co, { title: 'Formas de pagamento', tags: ['pix', 'cartão'] });

    const titles = async (query: string) =>
      ok(await api('GET', `/knowledge?${query}`, { token: co.adminToken }), 200, query).articles.map(
        (a: { title: string }) => a.title,
      );
    expect(await titles('searchParam=horario')).toEqual(['Horário de atendimento']);
    expect(await titles('searchParam=garantia')).toEqual(['Garantia estendida']);
    expect(await titles('searchParam=CARTAO')).toEqual(['Formas de pagamento']);
    expect(await titles('')).toEqual(['Formas de pagamento', 'Horário de atendimento', 'Garantia estendida']);

    const first = ok(await api('GET', '/knowledge?limit=2', { token: co.adminToken }), 200, 'page 1');
    expect(first.articles).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const second = ok(
      await api('GET', `/knowledge?limit=2&cursor=${encodeURIComponent(first.cursor)}`, { token: co.adminToken }),
      200,
      'page 2',
    );
    expect(second.articles.map((a: { title: string }) => a.title)).toEqual(['Garantia estendida']);
  });

  it('bodies are validated with the shared schema: a body or an upload, exactly one; a document takes no body', async () => {
    const co = await newCompany('kb-valid');
    for (const body of [
      { title: 'Sem texto' },
      { title: 'Os dois', body: 'texto', upload: { key: `company${co.companyId}/media/x-a.txt`, fileName: 'a.txt' } },
      { title: 'x', body: 'texto curto' },
      { title: 'Idioma', body: 'texto', language: 'fr' },
    ]) {
      const res = await api('POST', '/knowledge', { token: co.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect(await table().query(`C#${co.companyId}#KB`)).toEqual([]);
    const doc = ok(
      await api('POST', '/knowledge', {
        token: co.adminToken,
        body: {
          title: 'Manual',
          upload: await upload(co, 'manual.txt', 'text/plain', Buffer.from('Manual do produto.')),
        },
      }),
      201,
      'document',
    );
    const res = await api('PUT', `/knowledge/${doc.id}`, { token: co.adminToken, body: { body: 'outro texto' } });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toEqual(['body']);
  });
});

describe('knowledge base: documents', () => {
  it('a PDF, a DOCX, a text file and a Markdown file are read, split into passages and retrieved', async () => {
    const co = await newCompany('kb-docs');
    const files = [
      {
        file: await upload(
          co,
          'entrega.pdf',
          'application/pdf',
          pdfOf(['Prazo de entrega: as encomendas chegam em 3 dias uteis nas capitais.']),
        ),
        mimetype: 'application/pdf',
        question: 'qual o prazo de entrega nas capitais?',
        text: 'Prazo de entrega: as encomendas chegam em 3 dias uteis nas capitais.',
      },
      {
        file: await upload(
          co,
          'garantia.docx',
          DOCX,
          await docxOf(['Garantia', 'Todos os aparelhos têm garantia de doze meses contra defeitos de fabricação.']),
        ),
        mimetype: DOCX,
        question: 'quanto tempo de garantia os aparelhos têm?',
        text: 'Garantia\nTodos os aparelhos têm garantia de doze meses contra defeitos de fabricação.',
      },
      {
        file: await upload(
          co,
          'pagamento.txt',
          'text/plain',
          Buffer.from('Aceitamos Pix, boleto e cartão de crédito em até 10 parcelas sem juros.'),
        ),
        mimetype: 'text/plain',
        question: 'posso parcelar no cartão?',
        text: 'Aceitamos Pix, boleto e cartão de crédito em até 10 parcelas sem juros.',
      },
      {
        file: await upload(
          co,
          'horario.md',
          'text/markdown',
          Buffer.from('# Horário\n\nA loja abre de segunda a sábado, das 9h às 18h; aos domingos fica fechada.'),
        ),
        mimetype: 'text/markdown',
        question: 'a loja abre aos domingos?',
        text: '# Horário\nA loja abre de segunda a sábado, das 9h às 18h; aos domingos fica fechada.',
      },
    ];
    for (const { file, mimetype, question, text } of files) {
      const doc = ok(
        await api('POST', '/knowledge', {
          token: co.adminToken,
          body: { title: `Documento ${file.fileName}`, upload: file },
        }),
        201,
        file.fileName,
      );
      expect(doc).toMatchObject({ kind: 'document', fileName: file.fileName, mimetype, passages: 1 });
      expect(doc.size).toBeGreaterThan(0);
      const db = await stored(co.companyId, doc.id);
      expect(db.passages.map((p) => p.text)).toEqual([text]);
      expect(db.article!.fileKey).toBe(file.key);
      const found = await search(co, question);
      expect(found[0], question).toMatchObject({ articleId: doc.id, title: `Documento ${file.fileName}`, text });
    }
  });

  it('a re-upload replaces the passages; a bad, empty, too long or wrong-type file is refused and the old passages stay live', async () => {
    const co = await newCompany('kb-reupload');
    const first = await upload(
      co,
      'frete.txt',
      'text/plain',
      Buffer.from('Frete grátis para compras acima de 200 reais.'),
    );
    const doc = ok(
      await api('POST', '/knowledge', { token: co.adminToken, body: { title: 'Frete', upload: first } }),
      201,
      'document',
    );
    const before = await stored(co.companyId, doc.id);

    const refusals: [Promise<{ key: string; fileName: string }>, number, string][] = [
      // a PDF's first bytes, and nothing a PDF reader can read after them
      [
        upload(co, 'frete.pdf', 'application/pdf', Buffer.from('%PDF-1.7\n1 0 obj broken')),
        422,
        'ERR_KNOWLEDGE_FILE_UNREADABLE',
      ],
      [
        upload(co, 'frete.docx', DOCX, Buffer.from('PK\x03\x04 not really a zip')),
        422,
        'ERR_KNOWLEDGE_FILE_UNREADABLE',
      ],
      [upload(co, 'vazio.pdf', 'application/pdf', pdfOf([])), 422, 'ERR_KNOWLEDGE_EMPTY'],
      [upload(co, 'vazio.txt', 'text/plain', Buffer.from(' \n \n')), 422, 'ERR_KNOWLEDGE_EMPTY'],
      [upload(co, 'longo.txt', 'text/plain', Buffer.from('frete '.repeat(20_000))), 413, 'ERR_KNOWLEDGE_TOO_LARGE'],
      [
        upload(co, 'foto.png', 'image/png', Buffer.from('\x89PNG\r\n\x1a\nrest of a png', 'latin1')),
        415,
        'ERR_KNOWLEDGE_FILE_TYPE',
      ],
      [upload(co, 'planilha.csv', 'text/csv', Buffer.from('a;b\n1;2')), 415, 'ERR_KNOWLEDGE_FILE_TYPE'],
    ];
    for (const [file, status, error] of refusals) {
      const bad = await file;
      const res = await api('PUT', `/knowledge/${doc.id}`, { token: co.adminToken, body: { upload: bad } });
      expect(res.status, bad.fileName).toBe(status);
      expect(res.body.error, bad.fileName).toBe(error);
      // nothing half-stored: the article, its passages and what is live are as they were
      const now = await stored(co.companyId, doc.id);
      expect(now.article, bad.fileName).toEqual(before.article);
      expect(now.passages, bad.fileName).toEqual(before.passages);
      expect(now.live, bad.fileName).toEqual(before.live);
      expect((await search(co, 'frete grátis'))[0]?.articleId, bad.fileName).toBe(doc.id);
    }
    // a document created from a bad file leaves nothing behind
    const refused = await api('POST', '/knowledge', {
      token: co.adminToken,
      body: { title: 'Quebrado', upload: await upload(co, 'q.pdf', 'application/pdf', Buffer.from('%PDF-1.4 x')) },
    });
    expect(refused.body.error).toBe('ERR_KNOWLEDGE_FILE_UNREADABLE');
    expect(ok(await api('GET', '/knowledge', { token: co.adminToken }), 200, 'list').articles).toHaveLength(1);
    expect((await table().query(`C#${co.companyId}#KB`)).filter((i) => i.sk !== 'LIVE')).toHaveLength(1);

    const second = await upload(
      co,
      'frete-novo.docx',
      DOCX,
      await docxOf(['Frete grátis em todo o Brasil a partir de 150 reais, entregue pelos Correios.']),
    );
    const replaced = ok(
      await api('PUT', `/knowledge/${doc.id}`, { token: co.adminToken, body: { upload: second } }),
      200,
      're-upload',
    );
    expect(replaced).toMatchObject({ fileName: 'frete-novo.docx', mimetype: DOCX });
    const after = await stored(co.companyId, doc.id);
    expect(after.passages.map((p) => p.text)).toEqual([
      'Frete grátis em todo o Brasil a partir de 150 reais, entregue pelos Correios.',
    ]);
    expect(after.passages[0]!.gen).not.toBe(before.passages[0]!.gen);
    expect(after.live!.live[String(doc.id)]).toBe(after.passages[0]!.gen);
    const found = await search(co, 'frete grátis');
    expect(found.map((p) => p.text)).toEqual([
      'Frete grátis em todo o Brasil a partir de 150 reais, entregue pelos Correios.',
    ]);
  });
});

describe('knowledge base: who may use it', () => {
  it("another company never reads, changes, lists or retrieves a company's articles, nor uses its uploads", async () => {
    const a = await newCompany('kb-iso-a');
    const b = await newCompany('kb-iso-b');
    const article = await createArticle(a, {
      title: 'Segredo da empresa A',
      body: 'O código interno da promoção é ABACAXI42.',
    });
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { title: 'Tomado' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(method, `/knowledge/${article.id}`, { token: b.adminToken, body });
      expect(res.status, method).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('ABACAXI42');
    }
    expect(ok(await api('GET', '/knowledge', { token: b.adminToken }), 200, 'list').articles).toEqual([]);
    expect(await search(b, 'qual o código interno da promoção?')).toEqual([]);
    expect((await search(a, 'qual o código interno da promoção?'))[0]?.articleId).toBe(article.id);

    const aFile = await upload(a, 'a.txt', 'text/plain', Buffer.from('Documento interno da empresa A.'));
    const stolen = await api('POST', '/knowledge', { token: b.adminToken, body: { title: 'Roubado', upload: aFile } });
    expect(stolen.status).toBe(403);
    expect(stolen.body.error).toBe('ERR_NO_PERMISSION');
    expect(await table().query(`C#${b.companyId}#KB`)).toEqual([]);
    expect((await stored(a.companyId, article.id)).article).toMatchObject({ title: 'Segredo da empresa A' });
  });

  it('a user who is not an admin and a company whose plan lacks useOpenAi are refused on every route', async () => {
    const co = await newCompany('kb-gate');
    const article = await createArticle(co);
    const agent = await createUser(co);
    const calls: [string, string, unknown?][] = [
      ['GET', '/knowledge'],
      ['GET', `/knowledge/${article.id}`],
      ['POST', '/knowledge', { title: 'Nova', body: 'texto do artigo' }],
      ['PUT', `/knowledge/${article.id}`, { title: 'Alterada' }],
      ['DELETE', `/knowledge/${article.id}`],
      ['POST', '/knowledge/search', { question: 'trocas' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(method, path, { token: agent.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    await withoutFeature(co, 'useOpenAi');
    for (const [method, path, body] of calls) {
      const res = await api(method, path, { token: co.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect((await stored(co.companyId, article.id)).article).toMatchObject({ title: 'Política de trocas' });
  });
});
