import { ExternalSendBody, digitsOnly } from '#shared/schemas/whatsapp';
import { mediaKindOf } from '#shared/schemas/messages';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { isCloudProvider } from '#shared/constants';
import { AppError } from '../errors';
import { companyPlan, getCompany, isCompanyActive } from '../accounts/companies';
import { storeUploads } from '../storage';
import { upsertContactFromWhatsApp } from '../contacts/service';
import { findOrCreateTicket } from '../tickets/service';
import { sendMessage } from '../messages/send';
import { findWhatsappByToken, hashToken } from './repo';
import { auditOncePerHour } from '../audit/actor';
import { checkNumber } from './numbers';
import type { UploadedFile } from '../multipart';

/**
 * The external messages API: a connection's token sends a message to a number from outside the
 * app. The number is checked on WhatsApp through the session runner; the message goes out on the
 * contact's open ticket of that connection, or a new one, like any other message.
 */
export async function authenticateApiToken(authorization: string | undefined, address?: string): Promise<Whatsapp> {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  const whatsapp = token ? await findWhatsappByToken(token) : undefined;
  if (!whatsapp || !token) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const company = await getCompany(whatsapp.companyId);
  if (!company || !isCompanyActive(company)) throw new AppError('ERR_COMPANY_EXPIRED');
  if (!(await companyPlan(whatsapp.companyId))?.useExternalApi) throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  // the audit trail notes a token's use once an hour (from the first caller's address), not per call
  await auditOncePerHour(`api_token#${hashToken(token).slice(0, 16)}`, {
    companyId: whatsapp.companyId,
    action: 'api_token.used',
    address: address ?? null,
    target: { type: 'connection', id: whatsapp.id, name: whatsapp.name },
  });
  return whatsapp;
}

export function parseSendFields(fields: Record<string, unknown>) {
  const parsed = ExternalSendBody.safeParse(fields);
  if (!parsed.success)
    throw new AppError(
      'ERR_VALIDATION',
      400,
      parsed.error.issues.map((i) => ({ path: i.path, message: i.message })),
    );
  return parsed.data;
}

export async function sendExternal(
  whatsapp: Whatsapp,
  input: { number: string; body: string },
  files: UploadedFile[] = [],
) {
  const { companyId } = whatsapp;
  if (whatsapp.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  // the Cloud API cannot ask whether a number is on WhatsApp: Meta's answer to the send tells
  const jid = isCloudProvider(whatsapp.provider)
    ? `${digitsOnly(input.number)}@s.whatsapp.net`
    : await checkNumber(companyId, whatsapp.id, digitsOnly(input.number));
  const contact = await upsertContactFromWhatsApp(companyId, { number: jid, isGroup: false });
  const { ticket } = await findOrCreateTicket(companyId, {
    contactId: contact.id,
    whatsappId: whatsapp.id,
    isGroup: false,
    fromMe: true,
  });
  if (!files.length) return [await sendMessage(companyId, ticket, { body: input.body, automatic: false })];
  const stored = await storeUploads(companyId, 'media', files);
  const sent = [];
  for (const [i, file] of files.entries()) {
    const { key, mimetype } = stored[i]!;
    sent.push(
      await sendMessage(companyId, ticket, {
        // the text goes with the first file, as the caption
        body: i === 0 ? input.body : file.fileName,
        media: { key, mimetype, fileName: file.fileName, kind: mediaKindOf(mimetype) },
      }),
    );
  }
  return sent;
}
