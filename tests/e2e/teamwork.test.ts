import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, shot, simulator, unique } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Teamwork without collisions (issue 24): presence in a ticket and the soft lock, two attendants at once. */
describe('teamwork', () => {
  test('two attendants on one ticket see each other and the typing; the one not handling it cannot send; the admin takes it over', async () => {
    const co = await newCompany('team');
    const queue = await apiCall('POST', '/queue', { token: co.token, body: { name: 'Suporte', color: '#43a047' } });
    const people = { ana: 'Ana Souza', bruno: 'Bruno Lima' };
    const accounts: Record<string, { email: string; password: string; token?: string }> = {};
    for (const [key, name] of Object.entries(people)) {
      const email = `${key}-${unique()}@e2e.dev`;
      const created = await apiCall('POST', '/users', {
        token: co.token,
        body: { name, email, password: 'secret123', profile: 'user', queueIds: [queue.body.id] },
      });
      expect(created.status).toBe(201);
      const login = await apiCall('POST', '/auth/login', { body: { email, password: 'secret123' } });
      accounts[key] = { email, password: 'secret123', token: login.body.token };
    }
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    await eventually(
      async () =>
        (await simulator(`sessions/${co.companyId}/${wa.body.id}/scan`, { number: '5511900000024' })).status === 200,
    );
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Carla Mendes', number: '5511933332424' },
    });
    // Ana's ticket: she handles it
    const ticket = await apiCall('POST', '/tickets', {
      token: accounts.ana!.token,
      body: { contactId: contact.body.id, queueId: queue.body.id, status: 'open' },
    });
    expect(ticket.status).toBe(201);

    const ana = await newPage(browser);
    const bruno = await newPage(browser);
    await loginUI(ana.page, accounts.ana!.email, accounts.ana!.password);
    await loginUI(bruno.page, accounts.bruno!.email, accounts.bruno!.password);
    await ana.page.goto(`/tickets/${ticket.body.uuid}`);
    await bruno.page.goto(`/tickets/${ticket.body.uuid}`);

    // each sees the other's avatar in the ticket's header
    await ana.page.getByLabel(`${people.bruno} está vendo`).waitFor();
    await bruno.page.getByLabel(`${people.ana} está vendo`).waitFor();

    // Bruno does not handle it: the header says who does, the composer is replaced by the notice
    await bruno.page.getByText(`Sendo atendido por ${people.ana}`, { exact: true }).waitFor();
    await bruno.page.getByText(`Sendo atendido por ${people.ana}. Só quem atende envia mensagens.`).waitFor();
    expect(await bruno.page.getByRole('textbox', { name: 'Digite uma mensagem' }).count()).toBe(0);
    // the company does not let attendants take over
    expect(await bruno.page.getByRole('button', { name: 'Assumir' }).count()).toBe(0);
    // nor does the API let him send
    const refused = await apiCall('POST', `/messages/${ticket.body.id}`, {
      token: accounts.bruno!.token,
      body: { body: 'tentando' },
    });
    expect(refused.status).toBe(403);

    // Ana types: Bruno sees it live
    const composer = ana.page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.click();
    await composer.pressSequentially('Olá Carla, já verifico', { delay: 20 });
    await bruno.page.getByText(`${people.ana} está digitando…`).waitFor();
    await shot(bruno.page, '24-teamwork-locked-typing');
    await shot(ana.page, '24-teamwork-assignee');
    await composer.press('Enter');
    await bruno.page.getByText('Olá Carla, já verifico').waitFor();
    // no keystroke for a while: the indicator goes
    await bruno.page.getByText(`${people.ana} está digitando…`).waitFor({ state: 'detached', timeout: 10_000 });

    // the admin opens it and takes it over in one click
    const admin = await newPage(browser);
    await loginUI(admin.page, co.email, co.password);
    await admin.page.goto(`/tickets/${ticket.body.uuid}`);
    await admin.page.getByText(`Sendo atendido por ${people.ana}. Só quem atende envia mensagens.`).waitFor();
    await ana.page.getByLabel(`${co.name} está vendo`).waitFor();
    await shot(admin.page, '24-teamwork-admin-before');
    await admin.page.getByRole('button', { name: 'Assumir' }).click();
    await admin.page.getByText('Você assumiu o atendimento.').waitFor();
    await admin.page.getByRole('textbox', { name: 'Digite uma mensagem' }).waitFor();
    // Ana is now the one locked out, live
    await ana.page.getByText(`Sendo atendido por ${co.name}. Só quem atende envia mensagens.`).waitFor();
    expect(await ana.page.getByRole('textbox', { name: 'Digite uma mensagem' }).count()).toBe(0);
    await shot(ana.page, '24-teamwork-taken-over');

    const stored = await apiCall('GET', `/tickets/${ticket.body.id}`, { token: co.token });
    expect(stored.body.userId).toBe(co.userId);

    // the admin's top bar lists the team's statuses
    await admin.page.getByRole('button', { name: 'Seu status: Online' }).click();
    const team = admin.page.getByRole('list', { name: 'Status da equipe' });
    await team.getByText(people.ana).waitFor();
    await admin.page.waitForTimeout(400);
    await shot(admin.page, '24-teamwork-team-status');

    await Promise.all([ana.context.close(), bruno.context.close(), admin.context.close()]);
  });

  test("an attendant's tab without input for the company's idle time shows away to the admin, live, and online again on input", async () => {
    const co = await newCompany('away');
    expect((await apiCall('PUT', '/settings/awayAfterMinutes', { token: co.token, body: { value: '1' } })).status).toBe(
      200,
    );
    const email = `dora-${unique()}@e2e.dev`;
    const created = await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Dora Reis', email, password: 'secret123', profile: 'user', queueIds: [] },
    });
    expect(created.status).toBe(201);

    const admin = await newPage(browser);
    await loginUI(admin.page, co.email, co.password);
    const dora = await newPage(browser);
    // the attendant's page runs on a clock the test moves
    await dora.page.clock.install();
    await loginUI(dora.page, email, 'secret123');
    await dora.page.getByRole('button', { name: 'Seu status: Online' }).waitFor();

    await admin.page.getByRole('button', { name: 'Seu status: Online' }).click();
    const row = admin.page
      .getByRole('list', { name: 'Status da equipe' })
      .getByRole('listitem')
      .filter({ hasText: 'Dora Reis' });
    await row.getByText('Online').waitFor();

    // a minute and a bit without input: the tab reports idle, her only tab, so she is away
    await dora.page.clock.runFor(70_000);
    await row.getByText('Ausente').waitFor();
    await dora.page.getByRole('button', { name: 'Seu status: Ausente' }).waitFor();
    await admin.page.waitForTimeout(300);
    await shot(admin.page, '24-teamwork-away');

    await dora.page.mouse.move(200, 200);
    await dora.page.keyboard.press('Shift');
    await row.getByText('Online').waitFor();

    // her last tab closes: offline
    await dora.context.close();
    await row.getByText('Offline').waitFor();
    await admin.context.close();
  });

  test("the dashboard's attendants show who comes online and who leaves, live, without a reload", async () => {
    const co = await newCompany('dash-live');
    const email = `eva-${unique()}@e2e.dev`;
    const created = await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Eva Prado', email, password: 'secret123', profile: 'user', queueIds: [] },
    });
    expect(created.status).toBe(201);

    const admin = await newPage(browser);
    await loginUI(admin.page, co.email, co.password);
    await admin.page.goto('/');
    const row = admin.page.getByRole('table', { name: 'Atendentes' }).getByRole('row').filter({ hasText: 'Eva Prado' });
    await row.getByText('Offline').waitFor();

    const eva = await newPage(browser);
    await loginUI(eva.page, email, 'secret123');
    await row.getByText('Online').waitFor();
    await shot(admin.page, '24-dashboard-live-status');
    await eva.context.close();
    await row.getByText('Offline').waitFor();
    await admin.context.close();
  });
});
