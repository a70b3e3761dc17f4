import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, shot, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The accessible name of the focused element (or its tag), to check where the focus is. */
const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);

describe('keyboard-first (issue 40 item 5)', () => {
  test('the command bar jumps to pages and tickets and inserts a quick reply; the shortcuts step, focus, transfer and resolve', async () => {
    const co = await newCompany('keys');
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000015' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const tickets: Record<string, { id: number; uuid: string }> = {};
    for (const [i, name] of ['Beatriz Lima', 'Carlos Souza', 'Daniela Reis'].entries()) {
      const number = `55119${String(Date.now() + i).slice(-8)}`;
      const contact = await apiCall('POST', '/contacts', { token: co.token, body: { name, number } });
      expect(contact.status).toBe(201);
      const ticket = await apiCall('POST', '/tickets', {
        token: co.token,
        body: { contactId: contact.body.id, whatsappId: wa.body.id, status: 'open' },
      });
      expect(ticket.status).toBe(201);
      tickets[name] = ticket.body;
    }
    const quick = await apiCall('POST', '/quick-messages', {
      token: co.token,
      body: { shortcode: 'prazo', message: 'O prazo de entrega é de até 5 dias úteis.' },
    });
    expect(quick.status).toBe(201);

    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await loginUI(page, co.email, co.password);
    await realtimeUp(page);
    const bar = page.getByRole('dialog', { name: 'Barra de comandos' });
    const input = bar.getByRole('combobox', { name: 'Barra de comandos' });

    // Ctrl-K opens it (its code loads then), a page is one Enter away
    await page.getByRole('button', { name: /^Beatriz Lima/ }).waitFor();
    await page.keyboard.press('Control+k');
    await input.waitFor();
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('cmdk-input'))).toBe(true);
    await bar
      .getByRole('listbox', { name: 'Comandos' })
      .getByRole('option', { name: 'Contatos', exact: true })
      .waitFor();
    await shot(page, '50-command-bar');
    await input.fill('contat');
    await bar.getByRole('option', { name: 'Contatos', exact: true, selected: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/contacts');
    await bar.waitFor({ state: 'detached' });

    // a ticket by number
    await page.keyboard.press('Control+k');
    await input.fill(`#${tickets['Daniela Reis'].id}`);
    await bar.getByRole('option', { name: /^Daniela Reis/, selected: true }).waitFor();
    await shot(page, '51-command-bar-ticket-number');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/tickets/${tickets['Daniela Reis'].uuid}`);
    await page.getByRole('button', { name: 'Resolver' }).waitFor();

    // a ticket by the contact's name
    await page.keyboard.press('Control+k');
    await input.fill('Carl');
    await bar.getByRole('option', { name: /^Carlos Souza/, selected: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/tickets/${tickets['Carlos Souza'].uuid}`);
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.waitFor();
    await expect(composer.getAttribute('aria-keyshortcuts')).resolves.toBe('R');
    await expect(page.getByRole('button', { name: 'Resolver' }).getAttribute('aria-keyshortcuts')).resolves.toBe('E');

    // Escape gives the focus back where it was
    await composer.focus();
    await page.keyboard.press('Control+k');
    await input.waitFor();
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Digite uma mensagem');

    // a quick reply goes into the open ticket's composer, as its "/" suggestions put it; no macros
    // group while the server has no /macros route (404)
    await page.keyboard.press('Control+k');
    await bar.getByRole('option', { name: 'Aceitar o ticket' }).waitFor({ state: 'detached' });
    await bar.getByRole('option', { name: 'Resolver o ticket' }).waitFor();
    await input.fill('prazo');
    await bar.getByRole('option', { name: /^\/prazo/, selected: true }).waitFor();
    await shot(page, '52-command-bar-quick-reply');
    expect(await bar.getByText('Macros', { exact: true }).count()).toBe(0);
    await page.keyboard.press('Enter');
    await bar.waitFor({ state: 'detached' });
    await expect(composer.inputValue()).resolves.toBe('O prazo de entrega é de até 5 dias úteis.');
    expect(await focused(page)).toBe('Digite uma mensagem');
    await composer.fill('');

    // the help: ? outside a field, and from the command bar
    await page.keyboard.press('?');
    expect(await composer.inputValue()).toBe('?');
    await composer.fill('');
    await page.getByRole('button', { name: 'Opções do ticket' }).focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Atalhos de teclado' });
    await help.waitFor();
    for (const [action, keys] of [
      ['Abrir a barra de comandos', 'CtrlK'],
      ['Atalhos de teclado', '?'],
      ['Próximo ticket da lista', 'Alt↓ouJ'],
      ['Ticket anterior da lista', 'Alt↑ouK'],
      ['Aceitar o ticket', 'A'],
      ['Resolver o ticket', 'E'],
      ['Transferir o ticket', 'T'],
      ['Escrever uma mensagem', 'R'],
    ]) {
      const row = help.getByRole('row', { name: new RegExp(`^${action.replace(/[?]/g, '\\?')}`) });
      await expect(row.getByRole('cell').last().textContent()).resolves.toBe(keys);
    }
    await shot(page, '53-shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Opções do ticket');
    await page.keyboard.press('Control+k');
    await input.fill('atalhos');
    await page.keyboard.press('Enter');
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // next / previous in the list shown, in its order; Alt+↓ from the composer keeps the focus there
    // the open ticket's header has loaded (it loads 500 ms after the URL changes)
    const shows = (name: string) =>
      page.getByRole('button', { name: 'Dados do contato' }).filter({ hasText: name }).waitFor();
    const options = async (name: string) => {
      await shows(name);
      await page.getByRole('button', { name: 'Opções do ticket' }).focus();
    };
    const list = page.getByRole('list', { name: 'Atendendo' });
    const order = await list.getByRole('listitem').allInnerTexts();
    const names = order.map((text) => ['Beatriz Lima', 'Carlos Souza', 'Daniela Reis'].find((n) => text.includes(n))!);
    const at = names.indexOf('Carlos Souza');
    const below = names[at + 1] ?? null;
    const above = names[at - 1] ?? null;
    await composer.focus();
    if (below) {
      await page.keyboard.press('Alt+ArrowDown');
      await page.waitForURL(`**/tickets/${tickets[below].uuid}`);
      await shows(below);
      await eventually(async () => (await focused(page)) === 'Digite uma mensagem');
      await options(below);
      await page.keyboard.press('k');
      await page.waitForURL(`**/tickets/${tickets['Carlos Souza'].uuid}`);
    }
    if (above) {
      await options('Carlos Souza');
      await page.keyboard.press('k');
      await page.waitForURL(`**/tickets/${tickets[above].uuid}`);
      await options(above);
      await page.keyboard.press('j');
      await page.waitForURL(`**/tickets/${tickets['Carlos Souza'].uuid}`);
    }
    await shows('Carlos Souza');
    // a letter typed in the composer is text, not a shortcut
    await composer.focus();
    await page.keyboard.type('jet');
    expect(await composer.inputValue()).toBe('jet');
    expect(page.url()).toContain(tickets['Carlos Souza'].uuid);
    await composer.fill('');

    // R focuses the composer; T opens the transfer dialog; E resolves (the Resolve button's handler)
    await options('Carlos Souza');
    await page.keyboard.press('r');
    expect(await focused(page)).toBe('Digite uma mensagem');
    await page.getByRole('button', { name: 'Opções do ticket' }).focus();
    await page.keyboard.press('t');
    const transfer = page.getByRole('dialog', { name: /Transferir/ });
    await transfer.waitFor();
    await page.keyboard.press('Escape');
    await transfer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Opções do ticket' }).focus();
    await page.keyboard.press('e');
    await page.waitForURL('**/tickets');
    await page.getByRole('button', { name: /^Carlos Souza/ }).waitFor({ state: 'detached' });
    await eventually(
      async () =>
        (await apiCall('GET', `/tickets/${tickets['Carlos Souza'].id}`, { token: co.token })).body?.status === 'closed',
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
