import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import * as XLSX from '@e965/xlsx';
import { format } from 'date-fns';
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
} from './browser';
import { holdTimer } from '../integration/helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Company = Awaited<ReturnType<typeof newCompany>>;

async function connected(co: Company, number: string) {
  const created = await apiCall('POST', '/whatsapp', {
    token: co.token,
    body: { name: 'Linha campanhas', isDefault: true },
  });
  expect(created.status).toBeLessThan(300);
  const id = created.body.id as number;
  const session = `sessions/${co.companyId}/${id}`;
  await eventually(async () => (await simulator(`${session}/scan`, { number })).status === 200);
  await eventually(
    async () => (await apiCall('GET', `/whatsapp/${id}`, { token: co.token })).body?.status === 'CONNECTED',
  );
  return { id, session };
}

/** The campaign screens need the `cshow` storage flag (management.md 2). */
async function login(page: Page, co: Company) {
  await loginUI(page, co.email, co.password);
  await page.evaluate(() => localStorage.setItem('cshow', 'true'));
}

const runTimer = (name: string) => fetch(`${baseUrl()}/@timers/${name}`, { method: 'POST' });

function spreadsheet(rows: (string | number)[][]) {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'contacts');
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
}

describe('contact lists (management.md "Contact lists")', () => {
  test('an .xlsx import lists the refused rows with their lines, and each row gets its WhatsApp icon live', async () => {
    const co = await newCompany('clist');
    await connected(co, '5511900001001');
    const absent = '5521911110003';
    await simulator('absent', { number: absent });

    const { context, page } = await newPage(browser);
    await login(page, co);
    await page.goto('/contact-lists');
    await page.getByRole('button', { name: 'Nova lista' }).click();
    const modal = page.getByRole('dialog', { name: 'Nova lista de contatos' });
    await modal.getByLabel('Nome').fill('C');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.getByText('Muito curto!').waitFor();
    await modal.getByLabel('Nome').fill('Clientes da loja');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('cell', { name: 'Clientes da loja', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Contatos da lista Clientes da loja' }).click();
    await page.getByRole('heading', { name: 'Contatos de Clientes da loja' }).waitFor();

    await page.getByLabel('Importar planilha').setInputFiles({
      name: 'clientes.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: spreadsheet([
        ['name', 'number', 'email'],
        ['Ana Paula', '5521911110001', 'ana@example.com'],
        ['Bruno', '123', ''],
        ['Carla Dias', absent, ''],
        ['Daniel Reis', '5521911110004', 'not-an-email'],
        ['Ana de novo', '5521911110001', ''],
        ['Eva Melo', '5521911110005', ''],
      ]),
    });
    const result = page.getByRole('dialog', { name: 'Resultado da importação' });
    await result.getByText('3 de 6 linhas importadas.').waitFor();
    const refused = result.getByRole('table', { name: 'Linhas recusadas' });
    await expect.poll(() => refused.getByRole('row').count()).toBe(4);
    await refused.getByRole('row', { name: /^3 Bruno 123 Número: Muito curto!/ }).waitFor();
    await refused.getByRole('row', { name: /^5 Daniel Reis .* E-mail: E-mail inválido/ }).waitFor();
    await refused.getByRole('row', { name: /^6 Ana de novo .* Já existe um contato com este número/ }).waitFor();
    await shot(page, 'contact-list-import');
    await result.getByRole('button', { name: 'Fechar' }).click();

    // the runner checks each number in the background; the icons change without a reload
    await page
      .getByTestId(`item-${absent}`)
      .getByRole('img', { name: 'Número sem WhatsApp' })
      .waitFor({ timeout: 20_000 });
    await page
      .getByTestId('item-5521911110001')
      .getByRole('img', { name: 'Número com WhatsApp' })
      .waitFor({ timeout: 20_000 });
    await shot(page, 'contact-list-items');

    // another company's list is not reachable
    const other = await newCompany('clist-other');
    // ids count per company: the other company's second list has an id this company does not use
    await apiCall('POST', '/contact-lists', { token: other.token, body: { name: 'Lista alheia' } });
    const foreign = await apiCall('POST', '/contact-lists', {
      token: other.token,
      body: { name: 'Outra lista alheia' },
    });
    expect(foreign.body.id).toBe(2);
    await page.goto('/contact-lists');
    await page.getByRole('cell', { name: 'Clientes da loja', exact: true }).waitFor();
    expect(await page.getByText(/lista alheia/i).count()).toBe(0);
    expect((await apiCall('GET', `/contact-lists/${foreign.body.id}`, { token: co.token })).status).toBe(404);
    await context.close();
  });
});

describe('campaigns (management.md "Campaigns", 4)', () => {
  test('a campaign from a contact list starts, sends one message per contact, and its report follows the acks live to 100% and FINALIZADA', async () => {
    const co = await newCompany('camp');
    const line = await connected(co, '5511900002002');
    const list = await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Promo e2e' } });
    const numbers = ['5521922220001', '5521922220002', '5521922220003', '5521922220004'];
    for (const [i, number] of numbers.entries())
      await apiCall('POST', '/contact-list-items', {
        token: co.token,
        body: { name: `Cliente ${i + 1} Silva`, number, contactListId: list.body.id },
      });
    await apiCall('POST', '/campaign-settings', {
      token: co.token,
      body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } },
    });

    const { context, page } = await newPage(browser);
    await login(page, co);
    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const modal = page.getByRole('dialog', { name: 'Nova campanha' });
    // the form's rules: a message, a connection and an audience are required
    await modal.getByLabel('Nome').fill('Ofertas de verão');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => modal.getByText('Obrigatório').count()).toBeGreaterThanOrEqual(3);
    await modal.getByRole('combobox', { name: 'Conexão' }).click();
    await page.getByRole('option', { name: 'Linha campanhas' }).click();
    await modal.getByRole('combobox', { name: 'Lista de contatos' }).click();
    await page.getByRole('option', { name: 'Promo e2e' }).click();
    await modal.getByLabel('Mensagem 1').fill('Olá ');
    await modal.getByRole('button', { name: 'Inserir {{firstName}}' }).click();
    await modal.getByLabel('Mensagem 1').press('End');
    await modal.getByLabel('Mensagem 1').pressSequentially(', temos ofertas!');
    await modal.getByRole('tab', { name: 'Msg. 2' }).click();
    await modal.getByLabel('Mensagem 2').fill('Oi {{firstName}}, ofertas para você!');
    await modal.getByLabel('Agendamento').fill(format(new Date(Date.now() - 60_000), "yyyy-MM-dd'T'HH:mm"));
    await shot(page, 'campaign-modal');
    // due once saved, it waits for this test's tick: no other file's tick may start it meanwhile
    const releaseTimer = await holdTimer('campaigns');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Campanha salva.').waitFor();

    const campaign = await eventually(
      async () => (await apiCall('GET', '/campaigns', { token: co.token })).body.records[0],
    );
    expect(campaign.status).toBe('PROGRAMADA');
    expect(campaign.message1).toBe('Olá {{firstName}}, temos ofertas!');
    const row = page.getByTestId(`campaign-${campaign.id}`);
    await row.getByText('Programada').waitFor();

    // the due timer starts it; the list follows live
    await runTimer('campaigns');
    await row.getByText(/Em andamento|Finalizada/).waitFor();
    await releaseTimer();
    // a running or finished campaign opens read-only
    await row.getByRole('button', { name: 'Editar campanha Ofertas de verão' }).click();
    await page.getByRole('dialog', { name: 'Campanha (somente leitura)' }).waitFor();
    await page.getByRole('button', { name: 'Fechar' }).click();

    await row.getByRole('link', { name: 'Relatório de Ofertas de verão' }).click();
    await page.getByRole('heading', { name: 'Relatório: Ofertas de verão' }).waitFor();

    // exactly one message per contact reaches the simulated phone
    const outbound = await eventually(async () => {
      const out = (await simulator(line.session)).body.outbound as { wid: string; to: string; body: string }[];
      return out.length >= numbers.length && out;
    }, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const sent = (await simulator(line.session)).body.outbound as { wid: string; to: string; body: string }[];
    expect(sent).toHaveLength(numbers.length);
    expect(new Set(sent.map((o) => o.to.split('@')[0]))).toEqual(new Set(numbers));
    for (const o of sent) expect(['Olá Cliente, temos ofertas!', 'Oi Cliente, ofertas para você!']).toContain(o.body);

    await expect.poll(() => page.getByTestId('report-valid').textContent()).toBe('4');
    expect(await page.getByTestId('report-progress').textContent()).toBe('0%');

    // progress = delivered / valid, live as the phone acks
    await simulator(`${line.session}/ack`, { wid: outbound[0].wid, ack: 2 });
    await expect.poll(() => page.getByTestId('report-progress').textContent(), { timeout: 45_000 }).toBe('25%');
    await shot(page, 'campaign-report-partial');
    for (const o of sent.slice(1)) await simulator(`${line.session}/ack`, { wid: o.wid, ack: 2 });
    await simulator(`${line.session}/ack`, { wid: sent[1].wid, ack: 3 });
    await expect.poll(() => page.getByTestId('report-progress').textContent(), { timeout: 45_000 }).toBe('100%');
    await expect.poll(() => page.getByTestId('report-delivered').textContent()).toBe('4');
    await expect.poll(() => page.getByTestId('report-read').textContent()).toBe('1');
    await page.getByTestId('report-status').getByText('Finalizada').waitFor({ timeout: 60_000 });
    await page.getByRole('progressbar', { name: 'Progresso da campanha' }).waitFor();
    await shot(page, 'campaign-report');

    // another company's campaign is not reachable, and an unknown one says so
    const other = await newCompany('camp-other');
    expect((await apiCall('GET', `/campaigns/${campaign.id}/report`, { token: other.token })).status).toBe(404);
    expect((await apiCall('GET', '/campaigns', { token: other.token })).body.records).toEqual([]);
    await page.goto('/campaign/999/report');
    await page.getByRole('alert').getByText('Campanha não encontrada.').waitFor();
    await context.close();
  });

  test('a scheduled campaign is editable more than 1 hour ahead, and can be canceled and restarted', async () => {
    const co = await newCompany('camp-cancel');
    const line = await connected(co, '5511900003003');
    const list = await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Lista cancelamento' } });
    await apiCall('POST', '/contact-list-items', {
      token: co.token,
      body: { name: 'Gabi Souza', number: '5521933330001', contactListId: list.body.id },
    });
    const created = await apiCall('POST', '/campaigns', {
      token: co.token,
      body: {
        name: 'Natal',
        message1: 'Feliz Natal, {{firstName}}!',
        whatsappId: line.id,
        contactListId: list.body.id,
        scheduledAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
      },
    });
    expect(created.body.status).toBe('PROGRAMADA');

    const { context, page } = await newPage(browser);
    await login(page, co);
    await page.goto('/campaigns');
    const row = page.getByTestId(`campaign-${created.body.id}`);
    await row.getByText('Programada').waitFor();
    await row.getByRole('button', { name: 'Editar campanha Natal' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar campanha' });
    await modal.getByLabel('Nome').fill('Natal 2030');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await row.getByText('Natal 2030').waitFor();

    await row.getByRole('button', { name: 'Editar campanha Natal 2030' }).click();
    await page
      .getByRole('dialog', { name: 'Editar campanha' })
      .getByRole('button', { name: 'Cancelar campanha' })
      .click();
    await page.getByText('Campanha cancelada.').waitFor();
    await row.getByText('Cancelada').waitFor();

    await row.getByRole('button', { name: 'Editar campanha Natal 2030' }).click();
    await page
      .getByRole('dialog', { name: 'Editar campanha' })
      .getByRole('button', { name: 'Reiniciar campanha' })
      .click();
    await page.getByText('Campanha iniciada.').waitFor();
    await row.getByText(/Em andamento|Finalizada/).waitFor();
    await eventually(async () => ((await simulator(line.session)).body.outbound as unknown[]).length === 1, 20_000);
    await shot(page, 'campaigns-list');
    await context.close();
  });

  test('a campaign paused by the ban-risk limiter shows its reason on the list, the dialog, the report and the connection limits', async () => {
    const co = await newCompany('camp-pause');
    const line = await connected(co, '5511900004004');
    const list = await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Lista pausa' } });
    const created = await apiCall('POST', '/campaigns', {
      token: co.token,
      body: { name: 'Black friday', message1: 'Ofertas!', whatsappId: line.id, contactListId: list.body.id },
    });
    expect(created.body.status).toBe('INATIVA');
    // the limiter's decision (its rules are the server's tests): the campaign and the connection paused
    const pausedAt = new Date().toISOString();
    await setItemFields(`C#${co.companyId}`, `CAMPAIGN#${String(created.body.id).padStart(10, '0')}`, {
      status: 'PAUSADA',
      pauseReason: 'noAcks',
    });
    await setItemFields(`C#${co.companyId}#CAMPLIMIT`, `W#${line.id}`, { pausedReason: 'noAcks', pausedAt });

    const { context, page } = await newPage(browser);
    await login(page, co);
    await page.goto('/campaigns');
    const row = page.getByTestId(`campaign-${created.body.id}`);
    await row.getByText('Pausada').hover();
    await page
      .getByRole('tooltip')
      .getByText(/parou de confirmar as entregas/)
      .waitFor();
    await row.getByRole('button', { name: 'Editar campanha Black friday' }).click();
    const dialog = page.getByRole('dialog', { name: 'Campanha (somente leitura)' });
    await dialog
      .getByRole('alert')
      .getByText(/parou de confirmar as entregas/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Reiniciar campanha' }).waitFor();
    await shot(page, 'campaign-paused');
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    await page.goto(`/campaign/${created.body.id}/report`);
    await page
      .getByRole('alert')
      .getByText(/parou de confirmar as entregas/)
      .waitFor();

    await page.goto('/campaigns-config');
    await page
      .getByRole('table', { name: 'Limitador de risco de bloqueio' })
      .getByText(/parou de confirmar/)
      .waitFor();
    await shot(page, 'campaigns-config');
    await context.close();
  });

  test('campaign settings keep the interval options of section 9 and refuse a variable key already in use', async () => {
    const co = await newCompany('camp-config');
    const { context, page } = await newPage(browser);
    await login(page, co);
    await page.goto('/campaigns-config');
    await page.getByRole('combobox', { name: 'Intervalo entre mensagens' }).click();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toEqual(['Sem intervalo', '5 segundos', '10 segundos', '15 segundos', '20 segundos']);
    await page.getByRole('option', { name: '10 segundos' }).click();
    await page.getByRole('combobox', { name: 'Intervalo maior após' }).click();
    expect(await page.getByRole('option').count()).toBe(12);
    await page.getByRole('option', { name: '30 mensagens' }).click();
    await page.getByLabel('Atalho').fill('loja');
    await page.getByLabel('Conteúdo').fill('Loja Centro');
    await page.getByRole('button', { name: 'Adicionar variável' }).click();
    await page.getByLabel('Atalho').fill('LOJA');
    await page.getByRole('button', { name: 'Adicionar variável' }).click();
    await page.getByText('Este atalho já está em uso.').waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Configurações salvas.').waitFor();
    const saved = (await apiCall('GET', '/campaign-settings', { token: co.token })).body as {
      key: string;
      value: string;
    }[];
    const value = (k: string) => JSON.parse(saved.find((s) => s.key === k)?.value ?? 'null');
    expect(value('messageInterval')).toBe(10);
    expect(value('longerIntervalAfter')).toBe(30);
    expect(value('greaterInterval')).toBe(60);
    expect(value('variables')).toEqual([{ key: 'loja', value: 'Loja Centro' }]);
    await context.close();
  });
});
