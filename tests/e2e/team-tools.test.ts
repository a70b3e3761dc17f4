import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, shot, unique } from './browser';

/**
 * Team tools (management.md "Internal chat", "Kanban", "Announcements", "Help page"; attendance.md
 * 2.10 popovers), in Chromium against the local stack. Screenshots: tests/e2e/screenshots/team-*.png.
 */
let browser: Browser;
let superToken: string;
beforeAll(async () => {
  browser = await launch();
  superToken = (await apiCall('POST', '/auth/login', { body: { email: 'admin@admin.com', password: 'admin123' } })).body
    .token;
});
afterAll(async () => {
  await browser?.close();
});

const ok = <T = any>(res: { status: number; body: T }, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

async function newUser(token: string, name: string) {
  const email = `user-${unique()}@e2e.dev`;
  const user = ok(
    await apiCall('POST', '/users', { token, body: { name, email, password: 'secret123', profile: 'user' } }),
    'user',
  );
  return { id: user.id as number, email, password: 'secret123', name };
}

/** Drags with the mouse in small steps, as a person would (the board's pointer sensor needs movement). */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 15 });
  await page.mouse.up();
}
const centre = async (locator: ReturnType<Page['locator']>) => {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 30) };
};

describe('team tools', () => {
  test('two users chat live in two browsers: a new chat, Enter sends, unread counts and read marks', async () => {
    const co = await newCompany('chat');
    const bia = await newUser(co.token, `Bia ${unique()}`);
    const a = await newPage(browser);
    const b = await newPage(browser);
    try {
      await loginUI(a.page, co.email, co.password);
      await loginUI(b.page, bia.email, bia.password);

      await a.page.getByRole('navigation').getByRole('link', { name: 'Chat interno' }).click();
      await a.page.waitForURL('**/chats');
      await a.page.getByRole('button', { name: 'Novo chat' }).click();
      // the modal refuses a chat without members
      await a.page.getByLabel('Título').fill('Equipe');
      await a.page.getByRole('button', { name: 'Salvar' }).click();
      await a.page.getByRole('alert').getByText('Escolha ao menos um participante.').waitFor();
      await a.page.getByRole('combobox', { name: 'Participantes' }).click();
      await a.page.getByRole('option', { name: bia.name }).click();
      await a.page.getByRole('heading', { name: 'Novo chat' }).click();
      await a.page.getByRole('button', { name: 'Salvar' }).click();
      await a.page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
      const message = a.page.getByLabel('Mensagem');
      await message.fill('Bom dia, equipe!');
      await message.press('Enter');
      await a.page.getByTestId('chat-message').filter({ hasText: 'Bom dia, equipe!' }).waitFor();
      expect(await message.inputValue()).toBe('');

      // Bia, elsewhere in the app, sees the unread chat in the top-bar popover without a reload
      const chatsButton = b.page.getByRole('button', { name: 'Chats internos' });
      await eventually(async () => (await chatsButton.textContent())?.includes('1'));
      // and the menu item's dot
      await b.page.getByRole('navigation').getByLabel('Mensagens não lidas').waitFor();
      await chatsButton.click();
      await shot(b.page, 'team-chat-popover');
      await b.page.getByRole('link', { name: /Equipe/ }).click();
      await b.page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
      await b.page.getByRole('navigation').getByLabel('Mensagens não lidas').waitFor({ state: 'detached' });
      await b.page.getByTestId('chat-message').filter({ hasText: 'Bom dia, equipe!' }).waitFor();
      // opening the chat marks it read: the popover's count goes
      await b.page
        .getByRole('button', { name: 'Chats internos' })
        .locator('.MuiBadge-badge:not(.MuiBadge-invisible)')
        .waitFor({ state: 'detached' });
      // Bia's edit and delete buttons are absent: she does not own the chat
      await expect(b.page.getByRole('button', { name: 'Editar chat Equipe' }).count()).resolves.toBe(0);

      await b.page.getByLabel('Mensagem').fill('Bom dia! Tudo certo por aqui.');
      await b.page.getByLabel('Mensagem').press('Enter');
      await a.page.getByTestId('chat-message').filter({ hasText: 'Tudo certo por aqui.' }).waitFor();
      // whitespace is never sent
      await b.page.getByLabel('Mensagem').fill('   ');
      await b.page.getByLabel('Mensagem').press('Enter');
      await expect(b.page.getByTestId('chat-message').count()).resolves.toBe(2);
      await shot(a.page, 'team-chat');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  test('a kanban card moves between lanes by drag and drop and the ticket’s tags follow', async () => {
    const co = await newCompany('kanban');
    const whatsapp = ok(
      await apiCall('POST', '/whatsapp', { token: co.token, body: { name: `Line ${unique()}` } }),
      'whatsapp',
    );
    const contact = ok(
      await apiCall('POST', '/contacts', {
        token: co.token,
        body: { name: 'Cliente Kanban', number: `55119${Date.now() % 1e8}` },
      }),
      'contact',
    );
    const ticket = ok(
      await apiCall('POST', '/tickets', {
        token: co.token,
        body: { contactId: contact.id, whatsappId: whatsapp.id, status: 'open' },
      }),
      'ticket',
    );
    const plain = ok(await apiCall('POST', '/tags', { token: co.token, body: { name: 'Cliente VIP' } }), 'tag');
    const doing = ok(
      await apiCall('POST', '/tags', { token: co.token, body: { name: 'Em andamento', kanban: 1, color: '#1976d2' } }),
      'lane',
    );
    const done = ok(
      await apiCall('POST', '/tags', { token: co.token, body: { name: 'Concluído', kanban: 1, color: '#2e7d32' } }),
      'lane',
    );
    ok(
      await apiCall('POST', '/tags/sync', {
        token: co.token,
        body: { ticketId: ticket.id, tags: [plain.id, doing.id] },
      }),
      'sync',
    );

    const { context, page } = await newPage(browser);
    try {
      await loginUI(page, co.email, co.password);
      await page.getByRole('navigation').getByRole('link', { name: 'Kanban' }).click();
      await page.waitForURL('**/kanban');
      const card = page.getByRole('button', { name: `Atendimento ${ticket.id} de Cliente Kanban` });
      await page.getByRole('region', { name: 'Em andamento' }).getByText('Cliente Kanban').waitFor();
      await shot(page, 'team-kanban-before');
      await drag(page, await centre(card), await centre(page.getByRole('region', { name: 'Concluído' })));
      await page.getByRole('region', { name: 'Concluído' }).getByText('Cliente Kanban').waitFor();
      const tags = await eventually(async () => {
        const t = ok(await apiCall('GET', `/tickets/${ticket.id}`, { token: co.token }), 'ticket').tags.map(
          (x: any) => x.id,
        );
        return t.includes(done.id) ? t : undefined;
      });
      expect(tags.sort()).toEqual([plain.id, done.id].sort());
      // to the lane of tickets without a kanban tag: only the lane tag goes
      await drag(page, await centre(card), await centre(page.getByRole('region', { name: 'Em aberto' })));
      await page.getByRole('region', { name: 'Em aberto' }).getByText('Cliente Kanban').waitFor();
      await eventually(async () => {
        const t = ok(await apiCall('GET', `/tickets/${ticket.id}`, { token: co.token }), 'ticket').tags.map(
          (x: any) => x.id,
        );
        return t.length === 1 && t[0] === plain.id;
      });
      // live: a tag put on the ticket elsewhere moves the card
      ok(
        await apiCall('POST', '/tags/sync', { token: co.token, body: { ticketId: ticket.id, tags: [doing.id] } }),
        'sync',
      );
      await page.getByRole('region', { name: 'Em andamento' }).getByText('Cliente Kanban').waitFor();
      await shot(page, 'team-kanban');
      await page.getByRole('button', { name: 'Ver atendimento' }).click();
      await page.waitForURL(`**/tickets/${ticket.uuid}`);
    } finally {
      await context.close();
    }
  });

  test('a new announcement pops up for an attendant of another company without a reload, and opens with its text', async () => {
    const co = await newCompany('news');
    const agent = await newUser(co.token, `Agente ${unique()}`);
    const { context, page } = await newPage(browser);
    try {
      await loginUI(page, agent.email, agent.password);
      const button = page.getByRole('button', { name: 'Informativos' });
      const before = Number((await button.textContent())?.match(/\d+/)?.[0] ?? 0);
      const title = `Manutenção ${unique()}`;
      ok(
        await apiCall('POST', '/announcements', {
          token: superToken,
          body: { title, text: 'O sistema para às 22h.', priority: 1 },
        }),
        'announcement',
      );
      await eventually(async () => Number((await button.textContent())?.match(/\d+/)?.[0] ?? 0) === before + 1);
      await button.click();
      const item = page.getByRole('button', { name: new RegExp(title) });
      await item.waitFor();
      await shot(page, 'team-announcements-popover');
      await item.click();
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.getByText('O sistema para às 22h.').waitFor();
      await shot(page, 'team-announcement');
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await eventually(async () => Number((await button.textContent())?.match(/\d+/)?.[0] ?? 0) === before);
    } finally {
      await context.close();
    }
  });

  test('a help video opens in a modal player and Escape closes it', async () => {
    const help = await apiCall('POST', '/helps', {
      token: superToken,
      body: { title: `Primeiros passos ${unique()}`, description: 'Como atender', video: 'dQw4w9WgXcQ' },
    });
    ok(help, 'help');
    const co = await newCompany('help');
    const { context, page } = await newPage(browser);
    // nothing leaves the machine: the thumbnail and the player are answered locally
    await context.route(/youtube\.com|ytimg\.com/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<html><body>player</body></html>' }),
    );
    try {
      await loginUI(page, co.email, co.password);
      await page.getByRole('navigation').getByRole('link', { name: 'Ajuda' }).click();
      await page.waitForURL('**/helps');
      await page.getByRole('button', { name: `Assistir ${help.body.title}` }).click();
      const dialog = page.getByRole('dialog', { name: help.body.title });
      await dialog.locator('iframe[src*="youtube.com/embed/dQw4w9WgXcQ"]').waitFor();
      await shot(page, 'team-help');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await context.close();
    }
  });
});
