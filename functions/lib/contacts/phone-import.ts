import { randomUUID } from 'node:crypto';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { log } from '../log';
import { publish } from '../realtime';
import { sendSessionCommand } from '../whatsapp/commands';
import { getDefaultWhatsapp, requireWhatsapp } from '../whatsapp/repo';
import { importContacts } from './service';
import { assertWebSession } from '../whatsapp-cloud/connection';
import { auditBy, type AuditActor } from '../audit/actor';

/**
 * POST /contacts/import (management.md section 7): the phone's address book becomes contacts. The
 * session runner of a connected connection (the given one, else the default) reads the address book
 * WhatsApp gave it and sends it back in parts; each part goes through the spreadsheet import, so a
 * number already saved is left alone and a second import, or a redelivered part, creates nothing.
 */
export async function requestPhoneImport(companyId: number, whatsappId?: number, by?: AuditActor) {
  const whatsapp = whatsappId ? await requireWhatsapp(companyId, whatsappId) : await getDefaultWhatsapp(companyId);
  // a Cloud API number has no phone, hence no address book
  assertWebSession(whatsapp);
  if (whatsapp.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const requestId = randomUUID();
  await sendSessionCommand({ type: 'importContacts', companyId, whatsappId: whatsapp.id, requestId });
  // noted when asked for: the parts arrive later, from the runner, with no user behind them
  await auditBy(by, {
    action: 'data.imported',
    target: { type: 'contacts', id: 'all' },
    changes: { source: 'whatsapp', connection: whatsapp.name, whatsappId: whatsapp.id },
  });
  return { requestId, whatsappId: whatsapp.id };
}

/** One part of an address book from the runner: new numbers become contacts; the browsers hear how many. */
export async function applyAddressBook(event: Extract<InboundEvent, { type: 'addressBook' }>) {
  const rows = event.contacts.map((c) => ({ name: c.name || c.number, number: c.number }));
  const result = rows.length ? await importContacts(event.companyId, rows) : { newContacts: [], errorBag: [] };
  const skipped = result.errorBag.filter((e) => e.error.message === 'ERR_DUPLICATED_CONTACT').length;
  const invalid = result.errorBag.length - skipped;
  log.info('address book part imported', {
    companyId: event.companyId,
    whatsappId: event.whatsappId,
    part: event.part,
    parts: event.parts,
    created: result.newContacts.length,
    skipped,
    invalid,
  });
  await publish(event.companyId, 'contact', {
    action: 'reload',
    phoneImport: {
      requestId: event.requestId,
      whatsappId: event.whatsappId,
      part: event.part,
      parts: event.parts,
      created: result.newContacts.length,
      skipped,
      invalid,
    },
  });
}
