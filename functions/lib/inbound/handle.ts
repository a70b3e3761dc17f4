import type { InboundEvent } from '#shared/whatsapp-protocol';
import { formatLocal } from '#shared/dates';
import { isCloudProvider } from '#shared/constants';
import { applyHealthEvent, applyRestriction, applySessionEvent } from '../whatsapp/service';
import { recordNumberCheck } from '../whatsapp/numbers';
import { getWhatsapp } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { linkContactLid } from '../contacts/service';
import { applyNumberQuality, recordPricing } from '../whatsapp-cloud/usage';
import { applyAck, applySendResult } from '../messages/delivery';
import { markEdited, markRevoked } from '../messages/edits';
import { applyReaction } from '../messages/reactions';
import { getTicket } from '../tickets/service';
import { scheduleDue } from '../chatbot/timers';
import { noteCampaignMessage, resumeRestrictedCampaigns } from '../campaigns/sender';
import { applyListItemCheck, applyListItemChecks, resumeLockedChecks } from '../contact-lists/checks';
import { portsFor, processMessage } from './wiring';
import { applyAddressBook } from '../contacts/phone-import';
import { withCloudMedia } from '../whatsapp-cloud/media';
import { applyTemplateStatus } from '../whatsapp-cloud/templates';
import { assertTenantKey, deleteObject, getObject } from '../storage';
import { log } from '../log';

export const CALL_REJECTED_MESSAGE =
  '*Mensagem automática:*\nAs chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado!';

/** One provider event from the session runner, by type. */
export async function handleInbound(event: InboundEvent) {
  if (event.type === 'claimCheck') return handleClaimCheck(event);
  const { companyId } = event;
  switch (event.type) {
    case 'session':
      await applySessionEvent(event);
      return;
    case 'health':
      await applyHealthEvent(event);
      return;
    case 'templateStatus':
      await applyTemplateStatus(event);
      return;
    case 'numberQuality':
      await applyNumberQuality(event);
      return;
    case 'restriction': {
      // lifted before its stated end: what waited for it goes on now
      if (!(await applyRestriction(event)).lifted) return;
      await resumeRestrictedCampaigns(companyId, event.whatsappId);
      await resumeLockedChecks(companyId);
      return;
    }
    case 'addressBook':
      await applyAddressBook(event);
      return;
    case 'checkNumberResults':
      await applyListItemChecks(event);
      return;
    case 'checkNumberResult':
      // a contact list item's check (replyTo names it) only updates the item; the API's own waits read the reply item
      if (!(await applyListItemCheck(event))) await recordNumberCheck(event);
      return;
    case 'message':
      // a Cloud API message's media arrives as an id: fetched and stored here, before the pipeline
      await processMessage(
        companyId,
        event.whatsappId,
        await withCloudMedia(companyId, event.whatsappId, event.message),
      );
      return;
    case 'ack': {
      const message = await applyAck(companyId, event);
      if (message?.campaign) await noteCampaignMessage(companyId, message);
      // a Cloud API status says what Meta prices the message as: counted once per message
      if (event.pricing) await recordPricing(companyId, event.wid, event.pricing);
      return;
    }
    case 'sendResult': {
      const message = await applySendResult(companyId, event);
      if (message?.campaign) await noteCampaignMessage(companyId, message);
      if (message && event.wid) await scheduleExpiry(companyId, event.whatsappId, event.ticketId);
      return;
    }
    case 'edit':
      await markEdited(companyId, event);
      return;
    case 'revoke':
      await markRevoked(companyId, event);
      return;
    case 'reaction':
      await applyReaction(companyId, event);
      return;
    case 'undecryptable': {
      // a placeholder in the contact's ticket until the real message (same wid) replaces it
      const { type: _, companyId: __, whatsappId, reason: ___, ...lost } = event;
      await processMessage(companyId, whatsappId, {
        ...lost,
        fromMe: false,
        body: '',
        mediaType: 'chat',
        undecryptable: true,
      });
      return;
    }
    case 'lidMapping':
      await linkContactLid(companyId, event.pn, event.lid);
      return;
    case 'call':
      await handleCall(event);
      return;
  }
}

/** `expiresTicket`: an open ticket idle that long after our last message closes (timer re-checks). */
async function scheduleExpiry(companyId: number, whatsappId: number, ticketId: number) {
  const whatsapp = await getWhatsapp(companyId, whatsappId);
  if (!whatsapp?.expiresTicket) return;
  const ticket = await getTicket(companyId, ticketId);
  if (ticket?.status !== 'open') return;
  await scheduleDue('expire', companyId, ticketId, whatsapp.expiresTicket, ticket.updatedAt);
}

/**
 * An incoming call leaves a call_log message in the contact's ticket; with the `call` setting
 * not enabled the call is rejected and the contact is asked to write instead.
 */
async function handleCall(event: Extract<InboundEvent, { type: 'call' }>) {
  const whatsapp = await getWhatsapp(event.companyId, event.whatsappId);
  if (!whatsapp) return;
  const ports = portsFor(event.companyId, whatsapp);
  const settings = await ports.settings();
  const accepted = settings.call === 'enabled';
  const time = formatLocal(event.timestamp * 1000, 'HH:mm');
  const message = {
    wid: `call-${event.callId}`,
    chatJid: event.from,
    // a call from a LID names the caller's number too: the same contact, not a lid-only twin
    chatAltJid: event.fromAlt,
    fromMe: false,
    isGroup: false,
    body: `Chamada de voz/vídeo ${accepted ? 'recebida' : 'perdida'} às ${time}`,
    mediaType: 'call_log' as const,
    timestamp: event.timestamp,
  };
  const contact = await ports.upsertContact(message);
  const { ticket } = await ports.findOrCreateTicket(contact, message);
  const stored = await ports.storeMessage(ticket, contact, message);
  // calls reach only WhatsApp Web sessions; a Cloud API number has no call to reject
  if (accepted || !stored.created || isCloudProvider(whatsapp.provider)) return;
  await sendSessionCommand({
    type: 'rejectCall',
    companyId: event.companyId,
    whatsappId: event.whatsappId,
    callId: event.callId,
    from: event.from,
  });
  await ports.sendBot(stored.ticket ?? ticket, CALL_REJECTED_MESSAGE);
}

/**
 * An event that came through storage (too large for the queue): read and handled as if it had come
 * itself, then its object removed. A redelivered claim check whose object is gone was handled.
 */
async function handleClaimCheck(event: Extract<InboundEvent, { type: 'claimCheck' }>) {
  assertTenantKey(event.companyId, event.key);
  let json: Buffer;
  try {
    json = await getObject(event.key);
  } catch (err) {
    if ((err as { name?: string }).name !== 'NoSuchKey') throw err;
    log.info('claim check already handled', { companyId: event.companyId, of: event.of });
    return;
  }
  const real = JSON.parse(json.toString('utf8')) as InboundEvent;
  if (real.companyId !== event.companyId || real.type === 'claimCheck') throw new Error('claim check does not match');
  await handleInbound(real);
  await deleteObject(event.key);
}
