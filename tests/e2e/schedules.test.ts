import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
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
import { usesTimers } from '../integration/helpers';

usesTimers('schedules');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const local = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm");

describe('schedules calendar (management.md "Schedules")', () => {
  test('?contactId= opens the add dialog with that contact; the schedule is created, shown on a Monday-first calendar, edited and deleted', async () => {
    const co = await newCompany('sched');
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Helena Prado', number: '5511977776666' },
    });
    expect(contact.status).toBeLessThan(300);
    const other = await newCompany('sched-other');
    const foreign = await apiCall('POST', '/contacts', {
      token: other.token,
      body: { name: 'Outsider Otto', number: '5511966665555' },
    });
    await apiCall('POST', '/schedules', {
      token: other.token,
      body: {
        body: 'Not yours to see',
        contactId: foreign.body.id,
        sendAt: new Date(Date.now() + 3600_000).toISOString(),
      },
    });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/schedules?contactId=${contact.body.id}`);
    const dialog = page.getByRole('dialog', { name: 'Novo agendamento' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Contato' }).inputValue()).toContain('Helena Prado');

    // section 5: a body under 5 characters is refused in the form
    await dialog.getByLabel('Mensagem').fill('Oi');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Mensagem muito curta').waitFor();

    const when = new Date(Date.now() + 2 * 86400_000);
    when.setHours(10, 30, 0, 0);
    await dialog.getByLabel('Mensagem').fill('Lembrete: sua consulta é amanhã');
    await dialog.getByLabel('Data de envio').fill(local(when));
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Agendamento salvo com sucesso.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // the query parameter is gone once the dialog closed
    expect(new URL(page.url()).searchParams.get('contactId')).toBeNull();

    const stored = await eventually(async () => {
      const res = await apiCall('GET', '/schedules', { token: co.token });
      return res.body.schedules.find((s: { body: string }) => s.body.startsWith('Lembrete'));
    });
    expect(stored.contactId).toBe(contact.body.id);
    expect(new Date(stored.sendAt).getTime()).toBe(when.getTime());

    // the month calendar starts its weeks on Monday and shows the schedule
    const headers = page.locator('.rbc-month-header .rbc-header');
    await expect.poll(() => headers.first().textContent()).toMatch(/segunda/i);
    if (when.getMonth() !== new Date().getMonth()) await page.getByRole('button', { name: 'Próximo' }).click();
    await page.getByText('Helena Prado: Lembrete: sua consulta é amanhã').waitFor();
    // another company's schedule never shows
    expect(await page.getByText('Not yours to see').count()).toBe(0);
    await shot(page, 'schedules-calendar');

    // edit from the calendar
    await page.getByText('Helena Prado: Lembrete: sua consulta é amanhã').click();
    const edit = page.getByRole('dialog', { name: 'Editar agendamento' });
    await edit.getByLabel('Mensagem').fill('Lembrete: consulta remarcada');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('Helena Prado: Lembrete: consulta remarcada').waitFor();
    expect((await apiCall('GET', `/schedules/${stored.id}`, { token: co.token })).body.body).toBe(
      'Lembrete: consulta remarcada',
    );

    // the list by status
    await page.getByRole('button', { name: 'Lista' }).click();
    await page.getByRole('tab', { name: 'Pendente (1)' }).click();
    await page.getByRole('cell', { name: 'Helena Prado', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Enviado (0)' }).click();
    await page.getByText('Nenhum agendamento.').waitFor();
    await page.getByRole('tab', { name: 'Todos (1)' }).click();
    await shot(page, 'schedules-list');

    // a failed send: the dialog title says send error and shows why
    await setItemFields(`C#${co.companyId}`, `SCHEDULE#${String(stored.id).padStart(10, '0')}`, {
      status: 'ERRO',
      error: 'Número sem WhatsApp',
    });
    await page.reload();
    await page.getByRole('button', { name: 'Lista' }).click();
    await page.getByRole('tab', { name: 'Erro de envio (1)' }).click();
    await page.getByRole('button', { name: 'Editar agendamento de Helena Prado' }).click();
    const failed = page.getByRole('dialog', { name: 'Erro de envio' });
    await failed.getByText('Motivo: Número sem WhatsApp').waitFor();
    await shot(page, 'schedules-error');
    await failed.getByRole('button', { name: 'Cancelar' }).click();

    // a sent schedule is read-only and cannot be deleted
    await setItemFields(`C#${co.companyId}`, `SCHEDULE#${String(stored.id).padStart(10, '0')}`, {
      status: 'ENVIADA',
      sentAt: new Date().toISOString(),
    });
    await page.reload();
    await page.getByRole('button', { name: 'Lista' }).click();
    expect(await page.getByRole('button', { name: 'Excluir agendamento de Helena Prado' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Abrir agendamento de Helena Prado' }).click();
    const sent = page.getByRole('dialog', { name: 'Agendamento enviado' });
    await sent.getByText('Este agendamento já foi enviado').waitFor();
    expect(await sent.getByRole('button', { name: 'Salvar' }).count()).toBe(0);
    await sent.getByRole('button', { name: 'Fechar' }).click();

    await context.close();
  });

  test('an unsent schedule is deleted from the list after confirmation', async () => {
    const co = await newCompany('sched-del');
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Igor Lima', number: '5511955554444' },
    });
    const created = await apiCall('POST', '/schedules', {
      token: co.token,
      body: {
        body: 'Apagar este lembrete',
        contactId: contact.body.id,
        sendAt: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/schedules');
    await page.getByRole('button', { name: 'Lista' }).click();
    await page.getByRole('button', { name: 'Excluir agendamento de Igor Lima' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Confirmar|Excluir|OK/ })
      .click();
    await page.getByText('Agendamento excluído.').waitFor();
    expect((await apiCall('GET', `/schedules/${created.body.id}`, { token: co.token })).status).toBe(404);
    await context.close();
  });

  test('a schedule canceled because the customer wrote first shows why on its list chip and calendar entry, live', async () => {
    const co = await newCompany('sched-cancel');
    const created = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Agenda', isDefault: true } });
    expect(created.status).toBeLessThan(300);
    const session = `sessions/${co.companyId}/${created.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000077' })).status === 200);
    await eventually(
      async () =>
        (await apiCall('GET', `/whatsapp/${created.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    // an earlier conversation makes the contact; it was written before the schedule, so it cancels nothing
    const customer = '5511944443333';
    await simulator(`${session}/messages`, { from: customer, pushName: 'Joana Reis', body: 'Oi, tudo bem?' });
    const contact = await eventually(async () => {
      const res = await apiCall('GET', `/contacts?searchParam=${customer}`, { token: co.token });
      return res.body.contacts?.find((c: { number: string }) => c.number === customer) as { id: number } | undefined;
    });
    await new Promise((r) => setTimeout(r, 1100));
    // due in a few seconds: the page opens and the customer writes meanwhile
    const sendAt = new Date(Date.now() + 8000);
    const schedule = await apiCall('POST', '/schedules', {
      token: co.token,
      body: {
        body: 'Lembrete da visita',
        contactId: contact.id,
        sendAt: sendAt.toISOString(),
        cancelIfCustomerWrites: true,
      },
    });
    expect(schedule.status).toBe(201);

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/schedules');
    await page.getByRole('button', { name: 'Lista' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Joana Reis' });
    await row.getByText('Pendente').waitFor();
    await page.getByRole('status', { name: 'Reconectando…' }).waitFor({ state: 'detached' });

    // the customer writes before the time; at the time the schedule is canceled instead of sent
    await new Promise((r) => setTimeout(r, 1100));
    await simulator(`${session}/messages`, { from: customer, pushName: 'Joana Reis', body: 'Já resolvi, obrigada' });
    await fetch(`${baseUrl()}/@queues/idle`);
    await new Promise((r) => setTimeout(r, Math.max(0, sendAt.getTime() + 500 - Date.now())));
    await fetch(`${baseUrl()}/@timers/schedules`, { method: 'POST' });
    await fetch(`${baseUrl()}/@queues/idle`);
    const canceled = await eventually(async () => {
      const res = await apiCall('GET', `/schedules/${schedule.body.id}`, { token: co.token });
      return res.body.status === 'CANCELADA' && res.body;
    });
    const reason = `Não enviado: o cliente escreveu antes, em ${format(new Date(canceled.canceledAt), 'dd/MM/yyyy HH:mm')}.`;

    // the list: the chip turns Cancelado live and the reason is written under it (and is its tooltip)
    await row.getByText('Cancelado').waitFor({ timeout: 20_000 });
    await row.getByText(reason).waitFor();
    expect(await row.getByText('Cancelado').locator('xpath=ancestor::*[@title][1]').getAttribute('title')).toBe(reason);
    await shot(page, 'schedules-canceled-list');
    // the calendar entry's tooltip carries the reason too
    await page.getByRole('button', { name: 'Calendário' }).click();
    const entry = page.locator('.rbc-event-content').filter({ hasText: 'Joana Reis: Lembrete da visita' });
    await expect.poll(() => entry.getAttribute('title')).toBe(`Joana Reis: Lembrete da visita (Cancelado) ${reason}`);
    // nothing reached the phone
    const phone = (await simulator(session)).body as { outbound: { body: string }[] };
    expect(phone.outbound.filter((o) => o.body.includes('Lembrete da visita'))).toEqual([]);
    await context.close();
  });
});
