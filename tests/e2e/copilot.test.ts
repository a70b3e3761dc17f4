import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  apiCall,
  baseUrl,
  eventually,
  launch,
  loginUI,
  newCompany,
  newPage,
  setItemFields,
  shot,
  simulator,
  unique,
} from './browser';

/**
 * The attendant's copilot in the ticket (issue 39 item 5), against the local fake AI provider: a
 * suggestion fills the composer (nothing is sent) and shows the articles it used; a rewrite and a
 * translation replace the draft, with undo; the summary opens in a dialog.
 * Screenshots: tests/e2e/screenshots/copilot-*.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const fakeAi = async (path: string, body?: unknown) =>
  (
    await fetch(`${baseUrl()}/@openai${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json();

const pad = (n: number, w = 10) => String(n).padStart(w, '0');

describe('the copilot in the ticket', () => {
  test('suggest fills the composer with the articles used, rewrite and translate replace the draft with undo, the summary opens in a dialog; nothing is sent', async () => {
    const co = await newCompany('copilot');
    const queue = await apiCall('POST', '/queue', { token: co.token, body: { name: 'Trocas', color: '#3949ab' } });
    const apiKey = `sk-e2e-copilot-${unique()}${unique()}`;
    const prompt = await apiCall('POST', '/prompt', {
      token: co.token,
      body: {
        name: 'Copiloto da loja',
        prompt: 'Você é a assistente da Loja Exemplo. Responda com educação e em português, sempre curto.',
        apiKey,
        queueId: queue.body.id,
      },
    });
    expect(prompt.status).toBe(201);
    expect(
      (await apiCall('PUT', '/settings/copilotPromptId', { token: co.token, body: { value: String(prompt.body.id) } }))
        .status,
    ).toBe(200);
    // one published article live in the knowledge base, as the knowledge store keeps it
    await setItemFields(`C#${co.companyId}#KB`, `P#${pad(3)}#${pad(1, 6)}#${pad(0, 5)}`, {
      articleId: 3,
      gen: 1,
      n: 0,
      title: 'Prazo de troca',
      text: 'Trocas são aceitas em até 30 dias após a entrega, com a nota fiscal.',
      language: 'pt',
    });
    await setItemFields(`C#${co.companyId}#KB`, 'LIVE', { v: 1, live: { '3': 1 } });

    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Loja', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900003939' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    await simulator(`${session}/messages`, {
      from: '5511977773939',
      pushName: 'Carla Dias',
      body: 'Qual o prazo para troca do tênis?',
    });
    const ticket = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?status=pending&showAll=true', { token: co.token });
      return (list.body.tickets as { id: number; uuid: string; contact: { number: string } }[]).find(
        (t) => t.contact.number === '5511977773939',
      );
    });
    await apiCall('PUT', `/tickets/${ticket.id}`, {
      token: co.token,
      body: { status: 'open', userId: co.userId, queueId: queue.body.id },
    });

    const suggestion = 'Oi Carla! Você pode trocar o tênis em até 30 dias após a entrega, com a nota fiscal.';
    const formal = 'Prezada Carla, a troca pode ser feita em até 30 dias após a entrega.';
    const spanish = 'Estimada Carla, el cambio puede hacerse hasta 30 días después de la entrega.';
    const summary = '- A cliente quer saber o prazo para trocar um tênis.\n- Nada foi prometido ainda.';
    await fakeAi('/_script', { apiKey, replies: [suggestion, formal, spanish, summary] });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.waitFor();
    const copilot = page.getByRole('button', { name: 'Copiloto de IA' });

    // suggest: the composer holds it, editable; the article it used is shown; nothing went to the phone
    await copilot.click();
    await page.getByRole('menuitem', { name: 'Sugerir resposta' }).click();
    await expect.poll(() => composer.inputValue()).toBe(suggestion);
    const used = page.getByRole('region', { name: 'Artigos usados na sugestão' });
    await used.getByText('Prazo de troca').waitFor();
    await shot(page, 'copilot-suggest');
    expect((await simulator(session)).body.outbound).toEqual([]);

    // the attendant edits it, then asks for a more formal draft: replaced, and undo brings the edit back
    const edited = 'Oi Carla, pode trocar em até 30 dias, tá?';
    await composer.fill(edited);
    await copilot.click();
    await page.getByRole('menuitem', { name: 'Mais formal' }).click();
    await expect.poll(() => composer.inputValue()).toBe(formal);
    await page.getByRole('button', { name: 'Desfazer a mudança do copiloto' }).click();
    await expect.poll(() => composer.inputValue()).toBe(edited);

    // translate the draft into Spanish
    await copilot.click();
    await page.getByRole('menuitem', { name: 'Para espanhol' }).click();
    await expect.poll(() => composer.inputValue()).toBe(spanish);

    // summary in a dialog; the draft stays
    await copilot.click();
    await page.getByRole('menuitem', { name: 'Resumir atendimento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resumo do atendimento' });
    await dialog.getByText('A cliente quer saber o prazo para trocar um tênis.').waitFor();
    await shot(page, 'copilot-summary');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    expect(await composer.inputValue()).toBe(spanish);

    // what reached the provider: the rewrite carried the attendant's edit as data
    const requests = (await fakeAi(`/_requests?apiKey=${encodeURIComponent(apiKey)}`)) as {
      body: { messages: { role: string; content: string }[] };
    }[];
    expect(requests).toHaveLength(4);
    expect(requests[1]!.body.messages[1]!.content).toContain(JSON.stringify(edited));
    expect(requests[2]!.body.messages[1]!.content).toContain(JSON.stringify(edited));
    expect((await simulator(session)).body.outbound).toEqual([]);
    await context.close();
  });
});
