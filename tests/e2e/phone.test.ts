import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { apiCall, baseUrl, eventually, launch, loginUI, newCompany, newPage, shot, simulator } from './browser';

const PHONE = { width: 390, height: 844 };
// a 1x1 PNG: what the phone's camera hands over in the test
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
beforeAll(async () => {
  // a fake microphone that needs no permission prompt, for the recorder
  browser = await launch(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
});
afterAll(async () => {
  await browser?.close();
});

async function phoneContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    // as in newPage: the service worker's precache is pwa.test.ts's business, and motion is reduced
    serviceWorkers: 'block',
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['microphone']);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[browser error]', err.message));
  return { context, page };
}

/** The page body never scrolls sideways at 390 px. */
async function expectNoSideScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

/** Fully on screen: nothing to scroll to, nothing cut at an edge. */
async function expectOnScreen(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
}

async function expectFullScreen(dialog: Locator) {
  await dialog.waitFor();
  const box = await dialog.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
}

async function goByMenu(page: Page, link: string, path: string) {
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.waitForURL(`**${path}`);
  // the temporary drawer closes itself after navigating
  await page.getByRole('navigation').waitFor({ state: 'hidden' });
}

describe('the inbox on a phone (issue 25, 390 x 844)', () => {
  test('menu drawer, list then ticket full width, composer, camera, recorder, Back, contacts and dashboard fit', async () => {
    const co = await newCompany('phone');
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000009' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    for (const c of [
      { name: 'Rodrigo Albuquerque Nascimento', number: '5511944443333', email: 'rodrigo.albuquerque@exemplo.com.br' },
      { name: 'Ana Souza', number: '5511944442222', email: 'ana@exemplo.com' },
    ])
      expect((await apiCall('POST', '/contacts', { token: co.token, body: c })).status).toBe(201);
    // the customer writes first: a waiting ticket
    const inbound = await simulator(`${session}/messages`, {
      from: '5511977776666',
      pushName: 'Beatriz Lima',
      body: 'Oi, meu pedido ainda não chegou',
    });
    expect(inbound.status).toBe(200);

    const { context, page } = await phoneContext();
    await loginUI(page, co.email, co.password);

    // the top bar fits: refresh, volume, theme and language fold into one overflow menu
    await page.getByRole('button', { name: 'Mais opções' }).click();
    for (const item of ['Recarregar', 'Volume das notificações', 'Tema escuro', 'English'])
      await page.getByRole('menuitem', { name: item }).waitFor();
    await shot(page, 'phone-00-top-bar-menu');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Recarregar' }).count()).toBe(0);
    await expectOnScreen(page.getByRole('button', { name: 'Perfil' }));

    // the side menu is a temporary drawer behind the menu button, above the top bar with its close button
    await expect(page.getByRole('navigation').isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByRole('navigation').waitFor();
    await shot(page, 'phone-01-menu-drawer');
    await page.getByRole('button', { name: 'Fechar menu' }).click();
    await page.getByRole('navigation').waitFor({ state: 'hidden' });
    await goByMenu(page, 'Contatos', '/contacts');
    await goByMenu(page, 'Atendimentos', '/tickets');

    // the list alone; the waiting ticket is accepted and opens full width with a Back button
    await page.getByRole('tab', { name: /Aguardando/ }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Beatriz Lima' });
    await row.waitFor({ timeout: 45_000 });
    await expectNoSideScroll(page);
    await shot(page, 'phone-02-ticket-list');
    await row.getByRole('button', { name: 'Aceitar' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    const ticketUrl = page.url();
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.waitFor();
    await page.getByRole('log').getByText('Oi, meu pedido ainda não chegou').waitFor();
    await expect(page.getByRole('tab', { name: 'Abertos' }).isVisible()).resolves.toBe(false);
    const back = page.getByRole('button', { name: 'Voltar' });
    await expectOnScreen(back);
    await expectOnScreen(page.getByRole('button', { name: 'Resolver' }));
    await expectOnScreen(page.getByRole('button', { name: 'Opções do ticket' }));
    await expectNoSideScroll(page);

    // the composer fits the width; a text sent shows in the conversation
    await expectOnScreen(composer);
    await composer.fill('Vou verificar agora mesmo');
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByRole('log').getByText('Vou verificar agora mesmo').waitFor();
    await shot(page, 'phone-03-ticket');

    // the emoji picker fits the screen
    await page.getByRole('button', { name: 'Emoji' }).click();
    const picker = page.locator('.EmojiPickerReact');
    await picker.waitFor();
    await expectOnScreen(picker);
    await shot(page, 'phone-03b-emoji');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });

    // the contact drawer covers the screen with its close button reachable above the top bar
    await page.getByRole('button', { name: 'Dados do contato' }).click();
    const closeDrawer = page.getByRole('button', { name: 'Fechar dados do contato' });
    await expectOnScreen(closeDrawer);
    await page.getByRole('textbox', { name: 'Nova anotação' }).waitFor();
    await shot(page, 'phone-03c-contact-drawer');
    await closeDrawer.click();
    await closeDrawer.waitFor({ state: 'hidden' });

    // the header's other actions wait in the options menu; transfer goes full screen
    await page.getByRole('button', { name: 'Opções do ticket' }).click();
    await page.getByRole('menuitem', { name: 'Devolver' }).waitFor();
    await page.getByRole('menuitem', { name: 'Transferir' }).click();
    const transfer = page.getByRole('dialog', { name: 'Transferir ticket' });
    await expectFullScreen(transfer);
    await shot(page, 'phone-04-transfer');
    await transfer.getByRole('button', { name: 'Cancelar' }).click();
    await transfer.waitFor({ state: 'detached' });

    // attach: a file or the camera; the camera input opens the phone's back camera (capture)
    await page.getByRole('button', { name: 'Anexar arquivo' }).click();
    await page.getByRole('menuitem', { name: 'Arquivo' }).waitFor();
    const camera = page.getByTestId('composer-camera');
    await expect(camera.getAttribute('capture')).resolves.toBe('environment');
    await expect(camera.getAttribute('accept')).resolves.toBe('image/*,video/*');
    await shot(page, 'phone-05-attach-menu');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Câmera' }).click();
    await (await chooser).setFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PHOTO });
    await page.getByTestId('message').locator('img').first().waitFor({ timeout: 20_000 });
    const photo = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { media?: { fileName: string } }[] | undefined)?.find(
        (m) => m.media?.fileName === 'foto.png',
      );
    }, 20_000);
    expect(photo.media!.fileName).toBe('foto.png');

    // the recorder: its button is on screen, and so are cancel and send while recording
    const record = page.getByRole('button', { name: 'Gravar áudio' });
    await expectOnScreen(record);
    await record.click();
    await page.getByText('Gravando…').waitFor();
    await expectOnScreen(page.getByRole('button', { name: 'Cancelar gravação' }));
    await expectOnScreen(page.getByRole('button', { name: 'Enviar áudio' }));
    await expectNoSideScroll(page);
    await shot(page, 'phone-06-recording');
    await page.getByRole('button', { name: 'Cancelar gravação' }).click();
    await record.waitFor();

    // Back returns to the list; the browser's back button does the same
    await back.click();
    await page.waitForURL(/\/tickets$/);
    const openRow = page.getByRole('button', { name: 'Beatriz Lima' });
    await openRow.waitFor();
    await expect(composer.count()).resolves.toBe(0);
    await openRow.click();
    await page.waitForURL(ticketUrl);
    await composer.waitFor();
    await page.goBack();
    await page.waitForURL(/\/tickets$/);
    await openRow.waitFor();
    await expect(composer.count()).resolves.toBe(0);

    // new ticket goes full screen
    await page.getByRole('button', { name: 'Novo' }).click();
    const newTicket = page.getByRole('dialog', { name: 'Criar ticket' });
    await expectFullScreen(newTicket);
    await shot(page, 'phone-07-new-ticket');
    await newTicket.getByRole('button', { name: 'Cancelar' }).click();
    await newTicket.waitFor({ state: 'detached' });

    // contacts: name with number and e-mail below it, the actions on screen, import and export in a menu
    await goByMenu(page, 'Contatos', '/contacts');
    const contactRow = page.getByRole('row').filter({ hasText: 'Rodrigo Albuquerque Nascimento' });
    await contactRow.getByText('rodrigo.albuquerque@exemplo.com.br').waitFor();
    await expectOnScreen(contactRow.getByRole('button', { name: 'Excluir contato Rodrigo Albuquerque Nascimento' }));
    await expectOnScreen(page.getByRole('button', { name: 'Adicionar contato' }));
    await expectNoSideScroll(page);
    const scroller = page.getByTestId('page-scroll');
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, 'phone-08-contacts');
    await page.getByRole('button', { name: 'Mais ações' }).click();
    for (const item of ['Importar planilha', 'Importar do WhatsApp', 'Exportar CSV'])
      await page.getByRole('menuitem', { name: item }).waitFor();
    await page.keyboard.press('Escape');
    await contactRow.getByRole('button', { name: 'Editar contato Rodrigo Albuquerque Nascimento' }).click();
    const editContact = page.getByRole('dialog', { name: 'Editar contato' });
    await expectFullScreen(editContact);
    await editContact.getByRole('button', { name: 'Cancelar' }).click();

    // dashboard: cards in one column, the attendants table and the charts fit
    await goByMenu(page, 'Dashboard', '/');
    const talking = page.getByText('Em conversa', { exact: true });
    const waiting = page.getByText('Aguardando', { exact: true });
    await talking.waitFor();
    const [a, b] = [await talking.boundingBox(), await waiting.boundingBox()];
    expect(a!.x).toBe(b!.x);
    expect(b!.y).toBeGreaterThan(a!.y);
    const attendants = page.getByRole('table', { name: 'Atendentes' });
    await attendants.getByRole('row').filter({ hasText: co.name }).getByText('Online').waitFor();
    expect(await attendants.evaluate((el) => el.scrollWidth <= (el.parentElement?.clientWidth ?? 0))).toBe(true);
    await expectNoSideScroll(page);
    await shot(page, 'phone-09-dashboard');
    await attendants.scrollIntoViewIfNeeded();
    await shot(page, 'phone-09b-dashboard-attendants');
    const chart = page.getByRole('img', { name: /^Atendimentos por dia/ });
    await chart.scrollIntoViewIfNeeded();
    const chartBox = await chart.boundingBox();
    expect(chartBox!.x + chartBox!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSideScroll(page);
    await shot(page, 'phone-10-dashboard-charts');
    await context.close();
  });

  test('the desktop keeps its two panes, its top bar icons and the direct file chooser', async () => {
    const co = await newCompany('phonedesk');
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Marcos Dias', number: '5511922221111' },
    });
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    expect(wa.status).toBeLessThan(300);
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, userId: co.userId, status: 'open' },
    });
    expect(ticket.status).toBe(201);
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.getByRole('button', { name: 'Marcos Dias' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.waitFor();
    // list and ticket side by side, no Back button, the bar's own icons
    await page.getByRole('button', { name: 'Marcos Dias' }).waitFor();
    expect(await page.getByRole('button', { name: 'Voltar' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Recarregar' }).waitFor();
    expect(await page.getByRole('button', { name: 'Mais opções' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Devolver' }).waitFor();
    // attach opens the file chooser at once
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Anexar arquivo' }).click();
    expect((await chooser).isMultiple()).toBe(true);
    await shot(page, 'phone-desktop-tickets');
    await context.close();
  });
});
