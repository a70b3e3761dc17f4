import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, shot } from './browser';
import { cloudConnection, digits, meta } from './cloud';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("a Cloud API number's health and usage (Connections page)", () => {
  test('an admin sees the quality and limit, a flag live with the menu badge until Meta unflags, and the priced messages by month', async () => {
    const co = await newCompany('cloudhealth');
    const line = await cloudConnection(co.token, {
      qualityRating: 'GREEN',
      messagingLimit: 'TIER_2K',
    });
    const { phoneNumberId } = line;
    const whatsappId = line.id;

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/connections');
    const row = page.getByRole('row', { name: /Oficial/ });
    await row.getByText('Alta', { exact: true }).waitFor();
    await row.getByText('2.000 clientes/24 h').waitFor();
    const warning = row.getByText(/A Meta sinalizou este número em \d\d\/\d\d\/\d\d \d\d:\d\d/);
    const badge = page.getByLabel('Há conexões que precisam de atenção');
    await expect(warning.count()).resolves.toBe(0);
    await expect(badge.count()).resolves.toBe(0);

    // Meta flags the number: the row warns and the menu badge shows, live
    await realtimeUp(page);
    await page.waitForTimeout(500);
    const flaggedAt = Math.floor(Date.now() / 1000);
    const flagged = await meta('/_qualityUpdate', { phoneNumberId, event: 'FLAGGED', time: flaggedAt });
    expect(flagged.delivered?.status, JSON.stringify(flagged)).toBe(200);
    await warning.waitFor({ timeout: 10_000 });
    await row.getByText('Baixa', { exact: true }).waitFor();
    await badge.waitFor({ timeout: 10_000 });
    await shot(page, 'cloud-health-row-flagged');

    // a customer writes, two answers go out, Meta prices them (each counted once, whatever repeats)
    const from = `55119${digits(8)}`;
    await meta('/_inbound', { phoneNumberId, from, text: 'Oi, tudo bem?', name: 'Carla Nunes' });
    const ticket = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?showAll=true&status=pending', { token: co.token });
      return list.body.tickets[0];
    });
    const accepted = await apiCall('PUT', `/tickets/${ticket.id}`, {
      token: co.token,
      body: { status: 'open', userId: co.userId },
    });
    expect(accepted.status).toBe(200);
    const wids: string[] = [];
    for (const text of ['Olá Carla!', 'Seu pedido saiu para entrega.']) {
      const sent = await apiCall('POST', `/messages/${ticket.id}`, { token: co.token, body: { body: text } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      wids.push(
        await eventually(async () => {
          const list = await apiCall('GET', `/messages/${ticket.id}?limit=100`, { token: co.token });
          const message = (list.body.messages as { id: string; wid: string }[]).find((m) => m.id === sent.body.id);
          return message?.wid.startsWith('wamid.') ? message.wid : undefined;
        }),
      );
    }
    const status = (wamid: string, state: string, pricing: Record<string, string>) =>
      meta('/_status', { phoneNumberId, wamid, recipient: from, status: state, pricing });
    await status(wids[0]!, 'sent', { category: 'service', type: 'free_customer_service' });
    await status(wids[0]!, 'delivered', { category: 'service', type: 'free_customer_service' });
    await status(wids[1]!, 'sent', { category: 'utility', type: 'regular' });
    const usage = await eventually(async () => {
      const res = await apiCall('GET', `/whatsapp/${whatsappId}/usage`, { token: co.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body[0]?.totalCharged === 1 && res.body[0]?.totalFree === 1 ? res.body : undefined;
    });
    expect(usage).toHaveLength(1);

    await page.getByRole('button', { name: 'Uso e custos da conexão Oficial' }).click();
    const dialog = page.getByRole('dialog', { name: 'Uso e custos de Oficial' });
    await dialog.waitFor();
    const month = new Intl.DateTimeFormat('pt', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${usage[0].month}-01T00:00:00Z`),
    );
    const heading = month.charAt(0).toUpperCase() + month.slice(1);
    await dialog.getByRole('heading', { name: heading }).waitFor();
    const table = dialog.getByRole('table', { name: `Uso de ${heading}` });
    const cells = async (name: string) =>
      (
        await table
          .getByRole('row', { name: new RegExp(`^${name}`) })
          .getByRole('cell')
          .allTextContents()
      ).map((c) => c.trim());
    await table.getByRole('row', { name: /^Atendimento/ }).waitFor();
    await expect(cells('Utilidade')).resolves.toEqual(['Utilidade', '1', '0']);
    await expect(cells('Atendimento')).resolves.toEqual(['Atendimento', '0', '1']);
    await expect(cells('Total')).resolves.toEqual(['Total', '1', '1']);
    await shot(page, 'cloud-health-dialog');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Meta unflags it: the warning and the badge go away, live
    const unflagged = await meta('/_qualityUpdate', { phoneNumberId, event: 'UNFLAGGED', time: flaggedAt + 60 });
    expect(unflagged.delivered?.status, JSON.stringify(unflagged)).toBe(200);
    await warning.waitFor({ state: 'detached', timeout: 10_000 });
    await row.getByText('Alta', { exact: true }).waitFor();
    await badge.waitFor({ state: 'detached', timeout: 10_000 });
    await shot(page, 'cloud-health-row-unflagged');
    await context.close();

    // on a phone the table keeps its columns and scrolls sideways; the row's buttons shrink to their
    // icons (named all the same); Meta flags the number again and the phone shows it live
    const phone = await newPage(browser, { width: 390, height: 800 });
    await loginUI(phone.page, co.email, co.password);
    await phone.page.goto('/connections');
    await phone.page.getByRole('button', { name: 'Uso e custos da conexão Oficial' }).waitFor();
    await expect(phone.page.getByText('Uso e custos', { exact: true }).count()).resolves.toBe(0);
    await realtimeUp(phone.page);
    await phone.page.waitForTimeout(500);
    await meta('/_qualityUpdate', { phoneNumberId, event: 'FLAGGED', time: flaggedAt + 120 });
    await phone.page
      .getByRole('row', { name: /Oficial/ })
      .getByText(/A Meta sinalizou este número/)
      .waitFor();
    await shot(phone.page, 'cloud-health-phone');
    await phone.context.close();
  });
});
