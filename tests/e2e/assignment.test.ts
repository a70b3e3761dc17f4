import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { answerLate, apiCall, eventually, launch, loginUI, newCompany, newPage, shot, unique } from './browser';

/**
 * Automatic assignment (issue 24) in Chromium against the local stack: an admin turns a queue to
 * round robin in the queue modal and gives an attendant a capacity in the user modal; a ticket that
 * then waits in the queue reaches the online attendant's list by itself.
 * Screenshots: tests/e2e/screenshots/assignment-*.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const ok = <T = any>(res: { status: number; body: T }, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as any;
};
const menu = async (page: Page, name: string, path: string) => {
  await page
    .getByRole('navigation')
    .getByRole('link', { name, exact: true })
    .and(page.locator(`a[href="${path}"]`))
    .click();
  await page.waitForURL(`**${path}`);
};

describe('automatic assignment', () => {
  test('an admin sets a queue to round robin and an attendant capacity; a waiting ticket lands in the online attendant list', async () => {
    const co = await newCompany('assign');
    const queue = ok(
      await apiCall('POST', '/queue', { token: co.token, body: { name: 'Vendas', color: '#4caf50' } }),
      'queue',
    );
    const ana = { name: `Ana ${unique()}`, email: `ana-${unique()}@e2e.dev`, password: 'secret123' };
    const anaUser = ok(
      await apiCall('POST', '/users', { token: co.token, body: { ...ana, profile: 'user', queueIds: [queue.id] } }),
      'user',
    );
    const admin = await newPage(browser);
    const attendant = await newPage(browser);
    try {
      await loginUI(admin.page, co.email, co.password);

      // the queue modal: Distribuição manual -> automatic (round robin). The queue arrives late (as on
      // a slow network): a choice made meanwhile is never overwritten by its arrival.
      await menu(admin.page, 'Filas & Chatbot', '/queues');
      await answerLate(admin.page, `/api/queue/${queue.id}`);
      await admin.page.getByRole('button', { name: 'Editar fila Vendas' }).click();
      const qdialog = admin.page.getByRole('dialog');
      const mode = qdialog.getByRole('combobox', { name: 'Distribuição' });
      await expect.poll(() => mode.textContent()).toBe('Manual');
      await mode.click();
      await admin.page.getByRole('option', { name: 'Automática (rodízio)' }).click();
      await admin.page.getByRole('listbox').waitFor({ state: 'hidden' });
      await qdialog.getByText('vai, em rodízio, a um atendente online').waitFor();
      await shot(admin.page, 'assignment-queue-modal');
      await qdialog.getByRole('button', { name: 'Salvar', exact: true }).click();
      await admin.page.getByText('Fila salva com sucesso.').first().waitFor();
      expect((await apiCall('GET', `/queue/${queue.id}`, { token: co.token })).body.assignment).toBe('roundRobin');

      // the user modal: Máx. atendimentos abertos, refused at 0, saved at 2
      await menu(admin.page, 'Usuários', '/users');
      await admin.page.getByRole('button', { name: `Editar usuário ${ana.name}` }).click();
      const udialog = admin.page.getByRole('dialog');
      const capacity = udialog.getByRole('textbox', { name: 'Máx. atendimentos abertos' });
      await expect.poll(() => udialog.getByLabel(/^Nome/).inputValue()).toBe(ana.name);
      expect(await capacity.inputValue()).toBe('');
      await capacity.fill('0');
      await udialog.getByRole('button', { name: 'Salvar' }).click();
      await udialog.getByText('Inválido', { exact: true }).waitFor();
      await shot(admin.page, 'assignment-user-capacity-invalid');
      await capacity.fill('2');
      await shot(admin.page, 'assignment-user-modal');
      await udialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.page.getByText('Usuário salvo com sucesso.').first().waitFor();
      expect((await apiCall('GET', `/users/${anaUser.id}`, { token: co.token })).body.maxOpenTickets).toBe(2);

      // Ana is online; a ticket starts waiting in the queue and goes to her by itself
      await loginUI(attendant.page, ana.email, ana.password);
      const whatsapp = ok(
        await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } }),
        'whatsapp',
      );
      const contact = ok(
        await apiCall('POST', '/contacts', {
          token: co.token,
          body: { name: `Cliente ${unique()}`, number: `55119${String(Date.now()).slice(-8)}` },
        }),
        'contact',
      );
      const opened = ok(
        await apiCall('POST', '/tickets', {
          token: co.token,
          body: { contactId: contact.id, whatsappId: whatsapp.id, queueId: queue.id, status: 'open' },
        }),
        'ticket',
      );
      ok(
        await apiCall('PUT', `/tickets/${opened.id}`, {
          token: co.token,
          body: { status: 'pending', userId: null, queueId: queue.id },
        }),
        'return to queue',
      );
      // at once if Ana's page has its socket open already, else when it connects
      const assigned = await eventually(async () => {
        const t = (await apiCall('GET', `/tickets/${opened.id}`, { token: co.token })).body;
        return t.status === 'open' && t;
      });
      expect(assigned).toMatchObject({ status: 'open', userId: anaUser.id });
      await eventually(async () => (await attendant.page.getByText(contact.name).count()) > 0);
      await shot(attendant.page, 'assignment-attendant-list');
    } finally {
      await admin.context.close();
      await attendant.context.close();
    }
  });
});
