import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { KnowledgeLanguage, KnowledgePassage } from '#shared/schemas/knowledge';
import { fakeEmbedding } from '../../../infra/local/ai-fakes';
import { type ChatModel, EmbeddingsNotOffered } from '../prompts/chat-model';

/** the table's embedding items, in memory (BatchGet / BatchWrite as the store calls them) */
const table = new Map<string, Record<string, unknown>>();
const reads: string[] = [];
vi.mock('../db', () => ({
  batchGet: async (keys: { pk: string; sk: string }[]) => {
    reads.push(...keys.map((k) => k.sk));
    return keys.flatMap((k) => table.get(`${k.pk}|${k.sk}`) ?? []);
  },
  batchWrite: async (puts: { pk: string; sk: string }[]) => {
    for (const item of puts) table.set(`${item.pk}|${item.sk}`, item);
  },
}));
vi.mock('../config', () => ({ config: () => ({ logLevel: 'error' }) }));
/** the company's live passages: one list per LIVE version, as loadPassages answers them */
let live: KnowledgePassage[] = [];
const loads: number[] = [];
vi.mock('./repo', () => ({
  loadPassages: async (companyId: number) => {
    loads.push(companyId);
    return live;
  },
}));

const { forgetKeptVectors } = await import('./embeddings');
const { rankPassages, retrieve } = await import('./retrieve');

let articleId = 0;
const article = (language: KnowledgeLanguage, title: string, ...texts: string[]): KnowledgePassage[] => {
  articleId++;
  return texts.map((text, n) => ({ articleId, n, title, text, language }));
};

const BASE = [
  ...article(
    'pt',
    'Segunda via da fatura',
    'Para emitir a segunda via da fatura, abra o aplicativo e toque em Financeiro, Faturas.',
    'Boletos vencidos há mais de 60 dias só são reemitidos pela central.',
  ),
  ...article(
    'pt',
    'Instalação da fibra',
    'A instalação é agendada em até 5 dias úteis depois da contratação; o técnico leva duas horas.',
  ),
  ...article(
    'pt',
    'Cancelamento do contrato',
    'O cancelamento é feito na hora pelo aplicativo; no período de fidelidade há multa proporcional.',
  ),
  ...article('pt', 'Trocar a senha do Wi-Fi', 'A senha da rede pode ser alterada no aplicativo, em Meu Wi-Fi.'),
  ...article(
    'en',
    'Paying your bill online',
    'Bills can be paid with a credit card in the app; card payments are confirmed immediately.',
  ),
  ...article(
    'en',
    'Parental controls',
    'Parental controls block adult websites and set bedtime schedules for children’s devices.',
  ),
  ...article('es', 'Cómo pagar la factura', 'Puedes pagar tus facturas en efectivo en cualquier agencia de lotería.'),
  ...article('es', 'Red wifi para invitados', 'Crea una red separada para las visitas en la aplicación.'),
];
const idOf = (title: string) => BASE.find((p) => p.title === title)!.articleId;
const top = (question: string, passages = BASE) => rankPassages(passages, question).map((p) => p.articleId);

describe('lexical retrieval in pt, en and es', () => {
  it('ignores case and accents, in the question and in the passages', () => {
    expect(top('INSTALACAO DA FIBRA')[0]).toBe(idOf('Instalação da fibra'));
    expect(top('instalação')[0]).toBe(idOf('Instalação da fibra'));
    expect(top('COMO PAGAR LA FACTURA EN EFECTIVO')[0]).toBe(idOf('Cómo pagar la factura'));
  });

  it('finds a passage through a typo', () => {
    expect(top('como faço o cancelametno?')[0]).toBe(idOf('Cancelamento do contrato'));
    expect(top('how do I block adlut websites?')[0]).toBe(idOf('Parental controls'));
    expect(top('¿puedo pagar en efectvo?')[0]).toBe(idOf('Cómo pagar la factura'));
  });

  it('matches other forms of a word (plural, verb) in each language', () => {
    expect(top('quero cancelar meu contrato')[0]).toBe(idOf('Cancelamento do contrato'));
    expect(top('can I pay my bills with credit cards?')[0]).toBe(idOf('Paying your bill online'));
    expect(top('¿dónde pago la factura?')[0]).toBe(idOf('Cómo pagar la factura'));
    expect(top('hay redes para invitados?')[0]).toBe(idOf('Red wifi para invitados'));
  });

  it('matches a hyphenated word written whole', () => {
    expect(top('como mudo a senha do wifi')[0]).toBe(idOf('Trocar a senha do Wi-Fi'));
  });

  it('answers the right passage of an article, and at most `limit`', () => {
    const found = rankPassages(BASE, 'boleto vencido há 60 dias', 1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ articleId: idOf('Segunda via da fatura'), n: 1 });
    expect(found[0]!.score).toBeGreaterThan(0);
  });

  it('weighs a word in the title above the same word in the text', () => {
    const passages = [
      ...article('pt', 'Horário da loja', 'A loja abre às 9h. Aceitamos roteador usado na troca.'),
      ...article('pt', 'Roteador novo', 'A loja troca o aparelho. Aceitamos qualquer modelo.'),
    ];
    expect(rankPassages(passages, 'roteador')[0]!.title).toBe('Roteador novo');
  });

  it('answers nothing for a question the knowledge base does not cover (the relevance floor)', () => {
    expect(top('Qual a previsão do tempo para amanhã em Paris?')).toEqual([]);
    expect(top('Who won the football match yesterday?')).toEqual([]);
    expect(top('¿Cuál es la receta de la paella?')).toEqual([]);
    // one word shared with a longer question is no evidence
    expect(top('vocês têm vaga de emprego para técnico?')).toEqual([]);
    // stop words and greetings only
    expect(top('oi, tudo bem? como que eu faço isso?')).toEqual([]);
    expect(top('')).toEqual([]);
  });

  it('prefers passages in the question’s language', () => {
    const passages = [
      ...article('es', 'Pagar con tarjeta', 'Puedes pagar con tarjeta de crédito.'),
      ...article('pt', 'Pagar com cartão', 'Você pode pagar com cartão de crédito.'),
    ];
    expect(rankPassages(passages, 'posso pagar com cartão de crédito?')[0]!.language).toBe('pt');
    expect(rankPassages(passages, '¿puedo pagar con tarjeta de crédito?')[0]!.language).toBe('es');
  });
});

/** A provider whose vectors say what a passage is about: a topic per word list (tests only). */
const TOPICS = [
  ['cachorro', 'perro', 'dog', 'mascote', 'cabo mordido'],
  ['invitados', 'visitas', 'guests'],
];
const topicVector = (text: string) => {
  const lower = text.toLowerCase();
  const v = TOPICS.map((words) => (words.some((w) => lower.includes(w)) ? 1 : 0));
  return Float32Array.from([...v, 0.05]);
};

function provider(embed: (texts: string[]) => Float32Array[] | Promise<Float32Array[]>) {
  const calls: string[][] = [];
  const port = {
    embed: async ({ texts }: { texts: string[] }) => {
      calls.push(texts);
      return embed(texts);
    },
  } as unknown as ChatModel;
  return { port, calls };
}

describe('retrieve with embeddings from the prompt’s provider', () => {
  beforeEach(() => {
    table.clear();
    reads.length = 0;
    loads.length = 0;
    forgetKeptVectors();
  });

  it('uses them when offered: a passage sharing no word with the question is found by meaning', async () => {
    live = [...BASE, ...article('pt', 'Cabo danificado', 'Se o cabo mordido pelo pet parou a conexão, peça reparo.')];
    const { port, calls } = provider((texts) => texts.map(topicVector));
    const question = 'meu cachorro estragou o fio';
    expect(await retrieve(1, question)).toEqual([]);
    const found = await retrieve(1, question, { apiKey: 'sk-1', chatModel: port });
    expect(found.map((p) => p.title)).toEqual(['Cabo danificado']);
    expect(calls[0]).toEqual([question]);
    expect(calls[1]).toHaveLength(live.length);
  });

  it('keeps the lexical floor and order with a provider whose vectors say nothing', async () => {
    live = BASE;
    const { port } = provider((texts) => texts.map(fakeEmbedding));
    expect(await retrieve(1, 'Qual a previsão do tempo amanhã?', { apiKey: 'sk-1', chatModel: port })).toEqual([]);
    const found = await retrieve(1, 'como emitir a segunda via da fatura', { apiKey: 'sk-1', chatModel: port });
    expect(found[0]!.title).toBe('Segunda via da fatura');
  });

  it('does not embed the passages again: not per question, not in a new instance, only changed texts', async () => {
    live = [...BASE];
    const { port, calls } = provider((texts) => texts.map(fakeEmbedding));
    await retrieve(7, 'segunda via da fatura', { apiKey: 'k', chatModel: port });
    await retrieve(7, 'instalação da fibra', { apiKey: 'k', chatModel: port });
    expect(calls.map((c) => c.length)).toEqual([1, BASE.length, 1]);
    expect(table.size).toBe(BASE.length);
    // a new instance (nothing kept) with the same version reads the vectors from the table
    forgetKeptVectors();
    reads.length = 0;
    live = [...BASE];
    await retrieve(7, 'segunda via da fatura', { apiKey: 'k', chatModel: port });
    expect(calls.map((c) => c.length)).toEqual([1, BASE.length, 1, 1]);
    expect(reads).toHaveLength(BASE.length);
    // a new version with one changed passage embeds that one only
    live = BASE.map((p, i) => (i === 0 ? { ...p, text: `${p.text} Também pelo e-mail.` } : p));
    await retrieve(7, 'segunda via da fatura', { apiKey: 'k', chatModel: port });
    expect(calls.at(-1)).toEqual([`${BASE[0]!.title}\n${BASE[0]!.text} Também pelo e-mail.`]);
    expect(loads).toEqual([7, 7, 7, 7]);
  });

  it('skips them when the provider has none, and does not ask again for the next question', async () => {
    live = BASE;
    const { port, calls } = provider(() => {
      throw new EmbeddingsNotOffered(404);
    });
    const lexical = await retrieve(1, 'segunda via da fatura');
    expect(await retrieve(1, 'segunda via da fatura', { apiKey: 'no-embeddings', chatModel: port })).toEqual(lexical);
    expect(await retrieve(1, 'cancelamento', { apiKey: 'no-embeddings', chatModel: port })).not.toEqual([]);
    expect(calls).toHaveLength(1);
    expect(table.size).toBe(0);
  });

  it('answers lexically when the provider fails, and asks again next time', async () => {
    live = BASE;
    const { port, calls } = provider(() => {
      throw new Error('HTTP 503');
    });
    const found = await retrieve(1, 'segunda via da fatura', { apiKey: 'failing', chatModel: port });
    expect(found[0]!.title).toBe('Segunda via da fatura');
    await retrieve(1, 'segunda via da fatura', { apiKey: 'failing', chatModel: port });
    expect(calls).toHaveLength(2);
  });
});
