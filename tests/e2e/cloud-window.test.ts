import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, setItemFields, shot } from './browser';
import { cloudConnection, digits, meta } from './cloud';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Cloud API 24-hour window (issue 36)', () => {
  test("a cloud ticket shows its window's time left; once closed the composer is shut, and the customer writing opens it again", async () => {
    const co = await newCompany('cloudwin');
    const { phoneNumberId } = await cloudConnection(co.token);
    const from = `55119${digits(8)}`;
    await meta('/_inbound', { phoneNumberId, from, text: 'Oi, meu pedido chegou?', profileName: 'Carla Nunes' });
    const ticket = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?showAll=true&status=pending', { token: co.token });
      return list.body.tickets[0];
    });
    const accepted = await apiCall('PUT', `/tickets/${ticket.id}`, {
      token: co.token,
      body: { status: 'open', userId: co.userId },
    });
    expect(accepted.status).toBe(200);

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await page.getByRole('timer', { name: /^Janela de 24 h: 23 h 5\d min$/ }).waitFor();
    await expect(composer.isEnabled()).resolves.toBe(true);
    await shot(page, 'cloud-window-open');

    // a day and an hour since the customer wrote: the window has closed
    await setItemFields(`C#${co.companyId}`, `TICKET#${String(ticket.id).padStart(10, '0')}`, {
      customerMessageAt: new Date(Date.now() - 25 * 3_600_000).toISOString(),
    });
    await page.reload();
    await page.getByRole('timer', { name: 'Janela de 24 h fechada' }).waitFor();
    await expect(composer.isDisabled()).resolves.toBe(true);
    // nothing else goes out either: no voice message, no attachment
    await expect(page.getByRole('button', { name: 'Gravar áudio' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Enviar', exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Anexar arquivo' }).isDisabled()).resolves.toBe(true);
    await expect(composer.getAttribute('placeholder')).resolves.toBe(
      'A janela de 24 horas fechou: responda quando o cliente escrever de novo.',
    );
    await shot(page, 'cloud-window-closed');

    // the customer writes: the open page sees the window again, live (once its socket is up and
    // has joined the ticket's rooms, as attendance.test.ts waits for them)
    await realtimeUp(page);
    await page.waitForTimeout(500);
    await meta('/_inbound', { phoneNumberId, from, text: 'Alguém aí?' });
    await page.getByRole('timer', { name: 'Janela de 24 h: 23 h 59 min' }).waitFor({ timeout: 10_000 });
    await composer.fill('Chegou sim, Carla!');
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page
      .getByRole('log', { name: 'Atendimento' })
      .getByText(/Chegou sim, Carla!/)
      .waitFor();
    await context.close();
  });
});
