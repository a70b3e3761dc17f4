import {
  ACK,
  INBOUND_QUEUE,
  inboundGroupId,
  sendResultDedupId,
  type InboundEvent,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { updateItem } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { enqueue } from '../queue';
import { getMessageById } from '../messages/repo';
import { linkWid } from '../messages/delivery';
import { getWhatsapp } from '../whatsapp/repo';
import { probeCloud } from '../whatsapp/service';
import { cloudClientFor } from './connection';
import { GraphError, isRateLimited, isTokenError, type GraphClient } from './graph';
import { mkdtemp, rm } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadObject } from '../storage';
import { cloudMediaType } from '#shared/cloud-media';
import { isDualTransport, transportUp } from '#shared/transports';
import { sharedMessageId } from '#shared/wamid';
import { claimForCloud } from '../messages/sent-claim';
import { moveToWeb } from '../messages/failover';
import { probeCloudTransport } from './transport';

type SendCommand = Extract<SessionCommand, { type: 'send' }>;
type ReactCommand = Extract<SessionCommand, { type: 'react' }>;

/**
 * A reaction of ours through the Graph API (`type: reaction`, the message named by its wamid). Not
 * claimed: sent twice, it sets the same emoji again.
 */
export async function reactViaCloud(command: ReactCommand) {
  const whatsapp = await getWhatsapp(command.companyId, command.whatsappId);
  if (!whatsapp?.phoneNumberId || !transportUp(whatsapp, 'cloud')) return;
  const client = await cloudClientFor(command.companyId, command.whatsappId);
  const to = command.to.split('@')[0]!.replace(/\D/g, '');
  try {
    await client.sendReaction(whatsapp.phoneNumberId, to, command.wid, command.emoji);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    if (isRateLimited(err)) throw new CloudRateLimited(err.code);
    log.warn('cloud reaction refused', { companyId: command.companyId, status: err.status, code: err.code });
  }
}

/**
 * A `send` command of a Cloud API connection: `POST /{phone-number-id}/messages`. The Graph API has
 * no idempotency key, so the message is claimed once (`cloudClaimedAt`, conditionally) before the
 * call: a redelivered command finds it claimed and sends nothing. An outcome that stays unknown
 * (timeout, connection lost, a 5xx) is not retried: the undelivered watchdog flags the message and
 * a person decides to resend. A rate limit of Meta's is no outcome: Meta took nothing, so the claim
 * is released and the command fails, for the queue to deliver it again after its back-off (the
 * connection's later sends wait behind it in its FIFO group): a campaign waits, it does not fail.
 * The outcome goes on the `inbound` queue as the runner's `sendResult`
 * does, in the chat's group, so it lands before Meta's statuses for the wamid it carries.
 */
export async function sendViaCloud(command: SendCommand) {
  const { companyId, whatsappId, messageId } = command;
  const found = await getMessageById(companyId, messageId);
  if (!found || found.isDeleted) return;
  const result = (fields: {
    wid?: string;
    ack: number;
    error?: 'ERR_SENDING_WAPP_MSG';
    providerError?: { code: number; title: string };
  }) =>
    report({
      type: 'sendResult',
      companyId,
      whatsappId,
      messageId,
      ticketId: command.ticketId,
      chatJid: command.to,
      ...fields,
    });
  const whatsapp = await getWhatsapp(companyId, whatsappId);
  // a number with both transports: the send is claimed once for both (a runner that took it keeps it)
  const dual = isDualTransport(whatsapp);
  if (dual && !(await claimForCloud(companyId, command.wid))) {
    log.info('send taken by the WhatsApp Web transport: not sent through the Cloud API', { companyId, messageId });
    return;
  }
  const claimedAt = nowIso();
  const claimed = await updateItem(found.key, {
    set: { cloudClaimedAt: claimedAt },
    condition: 'attribute_exists(pk) AND attribute_not_exists(cloudClaimedAt)',
  });
  if (!claimed) {
    // a retry after Meta answered: its wamid was kept, the result is told again (never the send)
    const sent = (found as { cloudWamid?: string }).cloudWamid;
    if (sent) return result({ wid: sent, ack: ACK.sent });
    log.info('cloud send already claimed: not sent again', { companyId, messageId });
    return;
  }

  if (!whatsapp?.phoneNumberId || !transportUp(whatsapp, 'cloud')) {
    // a number with both transports: WhatsApp Web takes it while it is up
    if (dual && (await moveToWeb(command))) return;
    return result({ ack: ACK.pending, error: 'ERR_SENDING_WAPP_MSG' });
  }
  try {
    const client = await cloudClientFor(companyId, whatsappId);
    const to = command.to.split('@')[0]!.replace(/\D/g, '');
    const wamid = command.template
      ? await client.sendTemplate(whatsapp.phoneNumberId, to, command.template)
      : command.media
        ? await sendMediaViaCloud(client, whatsapp.phoneNumberId, to, command)
        : await client.sendText(whatsapp.phoneNumberId, to, command.body, command.quotedWid);
    // on both transports the message goes by the device id the wamid carries: the WhatsApp Web side's echo of it finds it
    const wid = dual ? sharedMessageId(wamid) : wamid;
    await updateItem(found.key, { set: { cloudWamid: wid }, condition: 'attribute_exists(pk)' });
    await linkWid(companyId, found, wid);
    return result({ wid, ack: ACK.sent });
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    if (err.outcomeUnknown) {
      log.warn('cloud send outcome unknown: left to the undelivered watchdog', {
        companyId,
        messageId,
        status: err.status,
      });
      return;
    }
    if (isRateLimited(err)) {
      await updateItem(found.key, {
        remove: ['cloudClaimedAt'],
        condition: 'cloudClaimedAt = :claimed',
        conditionValues: { ':claimed': claimedAt },
      });
      throw new CloudRateLimited(err.code);
    }
    log.warn('cloud send refused', { companyId, messageId, status: err.status, code: err.code });
    // Meta took nothing: on a number with both transports WhatsApp Web sends it instead
    if (dual && (await moveToWeb(command))) {
      if (isTokenError(err)) await probeCloudTransport(companyId, whatsappId);
      return;
    }
    await result({
      ack: ACK.pending,
      error: 'ERR_SENDING_WAPP_MSG',
      providerError: { code: err.code, title: err.title ?? err.message },
    });
    // a token Meta no longer takes: the connection shows why
    if (isTokenError(err))
      await (dual ? probeCloudTransport(companyId, whatsappId) : probeCloud(companyId, whatsappId));
  }
}

/**
 * A file: uploaded to Meta first (`POST /{phone-number-id}/media`), then sent by its media id as
 * what Meta takes it as (shared/cloud-media.ts), with the text as caption unless the text is only
 * the file's name (the composer's body for a file sent without words).
 */
async function sendMediaViaCloud(client: GraphClient, phoneNumberId: string, to: string, command: SendCommand) {
  const media = command.media!;
  // through a temporary file read as it is uploaded: a large video never sits whole in memory
  const dir = await mkdtemp(join(tmpdir(), 'cloud-media-'));
  let id: string;
  let type: ReturnType<typeof cloudMediaType>;
  try {
    const path = join(dir, 'file');
    await downloadObject(media.key, path);
    const file = await openAsBlob(path, { type: media.mimetype });
    type = cloudMediaType(media.mimetype, file.size);
    id = await client.uploadMedia(phoneNumberId, file, media.mimetype, media.fileName);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const caption = command.body.trim() && command.body !== media.fileName ? command.body : undefined;
  return client.sendMedia(
    phoneNumberId,
    to,
    {
      type,
      id,
      ...(caption && type !== 'audio' ? { caption } : {}),
      ...(type === 'document' ? { filename: media.fileName } : {}),
    },
    command.quotedWid,
  );
}

/** Meta's rate limit on a send: the command is retried by its queue (never reported as failed). */
export class CloudRateLimited extends Error {
  constructor(readonly code: number) {
    super(`Meta rate limit ${code}: the send waits for the queue's retry`);
    this.name = 'CloudRateLimited';
  }
}

async function report(event: Extract<InboundEvent, { type: 'sendResult' }>) {
  await enqueue(INBOUND_QUEUE, event, {
    groupId: inboundGroupId(event.companyId, event.whatsappId, event.chatJid ?? `ticket:${event.ticketId}`),
    dedupId: sendResultDedupId(event.companyId, event.messageId, event.error),
  });
}
