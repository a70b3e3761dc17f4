import {
  areJidsSameUser,
  getContentType,
  isJidBroadcast,
  normalizeMessageContent,
  proto,
  type MessageUserReceipt,
  type MessageUserReceiptUpdate,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type {
  ConnectionState,
  NewChatMessageCapInfo,
  ReachoutTimelockState,
  WACallEvent,
} from '@whiskeysockets/baileys';
import {
  ACK,
  type NormalizedMediaType,
  type ProviderError,
  type SessionRestriction,
  type UndecryptableMessage,
} from '#shared/whatsapp-protocol';
import type { ProviderMessage } from '../../provider';

/**
 * Pure translation of Baileys events into the provider-neutral shapes (no socket, no I/O), so it
 * can be tested with recorded event objects.
 */
export type Translated =
  | {
      kind: 'message';
      message: Omit<ProviderMessage, 'media'>;
      media?: { mimetype: string; fileName?: string; size?: number };
      raw: WAMessage;
    }
  | {
      kind: 'ack';
      wid: string;
      chatJid: string;
      ack: number;
      error?: 'ERR_SENDING_WAPP_MSG';
      providerError?: ProviderError;
    }
  | ({ kind: 'edit'; wid: string; chatJid: string; body: string } & Sender)
  | ({ kind: 'revoke'; wid: string; chatJid: string } & Sender)
  | ({ kind: 'reaction'; wid: string; chatJid: string; emoji: string; reactionId: string } & Sender)
  | ({ kind: 'undecryptable' } & UndecryptableMessage);

/** Who sent an edit or a revoke: the server applies it only to that sender's own messages. */
type Sender = { fromMe: boolean; participantJid?: string };

const MEDIA_TYPES: Record<string, NormalizedMediaType> = {
  imageMessage: 'image',
  videoMessage: 'video',
  // round video notes
  ptvMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
};

const toNumber = (v: unknown) =>
  typeof v === 'number'
    ? v
    : typeof (v as { toNumber?: unknown } | null)?.toNumber === 'function'
      ? (v as { toNumber: () => number }).toNumber()
      : Number(v ?? 0);

/** WhatsApp status (0 error, 1 pending, 2 server ack, 3 delivered, 4 read, 5 played) -> our ack (1 sent ... 4 played). */
export const statusToAck = (status: number | null | undefined) => Math.max(0, Math.min(4, (status ?? 1) - 1));

function locationBody(loc: proto.Message.ILocationMessage) {
  const thumb = loc.jpegThumbnail ? `data:image/jpeg;base64,${Buffer.from(loc.jpegThumbnail).toString('base64')}` : '';
  const link = `https://maps.google.com/maps?q=${loc.degreesLatitude}%2C${loc.degreesLongitude}&z=17`;
  const description = [loc.name, loc.address].filter(Boolean).join(' - ');
  return [thumb, link, description].filter((p, i) => i < 2 || p).join('|');
}

/** In groups, who wrote a message: the number jid when WhatsApp gave one besides the `@lid` id. */
function participantOf(key: WAMessageKey, isGroup: boolean) {
  if (!isGroup) return undefined;
  return key.participantAlt?.endsWith('@s.whatsapp.net') ? key.participantAlt : (key.participant ?? undefined);
}

/**
 * The chat a key belongs to, with the contact's other id. A message to one of the contact's
 * broadcast lists names the list (`<timestamp>@broadcast`) as its chat: the chat is the sender.
 */
function chatOf(key: WAMessageKey): { chatJid: string; altJid?: string } {
  const remote = key.remoteJid ?? '';
  if (isJidBroadcast(remote) && remote !== 'status@broadcast')
    return { chatJid: key.participant ?? '', altJid: key.participantAlt ?? undefined };
  return { chatJid: remote, altJid: key.remoteJidAlt ?? undefined };
}

const senderOf = (key: WAMessageKey, chatJid: string): Sender => ({
  fromMe: Boolean(key.fromMe),
  participantJid: participantOf(key, chatJid.endsWith('@g.us')),
});

/** One upserted message -> a message, an edit or a deletion (protocol messages), or nothing. */
export function translateUpsert(raw: WAMessage): Translated | undefined {
  const key = raw.key;
  if (key.remoteJid === 'status@broadcast') return undefined;
  const { chatJid, altJid } = chatOf(key);
  if (!chatJid || chatJid.endsWith('@newsletter') || !key.id) return undefined;
  // delivered, but its keys did not decrypt it (Baileys' CIPHERTEXT stub; it asks the sender again)
  if (!raw.message && raw.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT && !key.fromMe) {
    const isGroup = chatJid.endsWith('@g.us');
    return {
      kind: 'undecryptable',
      wid: key.id,
      chatJid,
      chatAltJid: isGroup ? undefined : altJid,
      isGroup,
      participantJid: participantOf(key, isGroup),
      participantName: isGroup ? (raw.pushName ?? undefined) : undefined,
      pushName: isGroup ? undefined : (raw.pushName ?? undefined),
      timestamp: toNumber(raw.messageTimestamp) || Math.floor(Date.now() / 1000),
      reason: raw.messageStubParameters?.[0] ?? undefined,
    };
  }
  const content = normalizeMessageContent(raw.message);
  if (!content) return undefined;
  const type = getContentType(content);
  if (!type) return undefined;

  if (type === 'protocolMessage') {
    const p = content.protocolMessage!;
    // the target is named by the protocol message; the sender is the key of the protocol message itself
    const target = p.key?.id;
    if (!target) return undefined;
    const sender = senderOf(key, chatJid);
    if (p.type === proto.Message.ProtocolMessage.Type.REVOKE)
      return { kind: 'revoke', wid: target, chatJid, ...sender };
    if (p.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      const edited = normalizeMessageContent(p.editedMessage);
      const body =
        edited?.conversation ??
        edited?.extendedTextMessage?.text ??
        edited?.imageMessage?.caption ??
        edited?.videoMessage?.caption ??
        '';
      return { kind: 'edit', wid: target, chatJid, body, ...sender };
    }
    return undefined;
  }
  if (type === 'reactionMessage') {
    // the reacted message is named by the reaction; who reacted is the reaction message's own key
    const reaction = content.reactionMessage!;
    const target = reaction.key?.id;
    if (!target || !key.id) return undefined;
    return {
      kind: 'reaction',
      wid: target,
      chatJid,
      emoji: reaction.text ?? '',
      reactionId: key.id,
      ...senderOf(key, chatJid),
    };
  }
  if (type === 'senderKeyDistributionMessage' || type === 'messageContextInfo') return undefined;

  let body = '';
  let mediaType: NormalizedMediaType = 'chat';
  let media: { mimetype: string; fileName?: string; size?: number } | undefined;
  let contextInfo: proto.IContextInfo | null | undefined;

  switch (type) {
    case 'conversation':
      body = content.conversation ?? '';
      break;
    case 'extendedTextMessage':
      body = content.extendedTextMessage?.text ?? '';
      contextInfo = content.extendedTextMessage?.contextInfo;
      break;
    case 'locationMessage':
    case 'liveLocationMessage': {
      const loc = (content.locationMessage ?? content.liveLocationMessage) as proto.Message.ILocationMessage;
      body = locationBody(loc);
      mediaType = 'locationMessage';
      contextInfo = loc.contextInfo;
      break;
    }
    case 'contactMessage':
      body = content.contactMessage?.vcard ?? '';
      mediaType = 'vcard';
      break;
    case 'contactsArrayMessage':
      body = (content.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? '').join('\n');
      mediaType = 'vcard';
      break;
    case 'buttonsResponseMessage':
      body =
        content.buttonsResponseMessage?.selectedDisplayText ?? content.buttonsResponseMessage?.selectedButtonId ?? '';
      break;
    case 'listResponseMessage':
      body = content.listResponseMessage?.title ?? content.listResponseMessage?.singleSelectReply?.selectedRowId ?? '';
      break;
    case 'templateButtonReplyMessage':
      body = content.templateButtonReplyMessage?.selectedDisplayText ?? '';
      break;
    default: {
      const kind = MEDIA_TYPES[type];
      if (!kind) return undefined;
      const m = content[type as keyof proto.IMessage] as proto.Message.IImageMessage & proto.Message.IDocumentMessage;
      mediaType = kind;
      body = m.caption ?? m.fileName ?? '';
      media = {
        mimetype: m.mimetype ?? 'application/octet-stream',
        fileName: m.fileName ?? undefined,
        size: m.fileLength ? toNumber(m.fileLength) : undefined,
      };
      contextInfo = m.contextInfo;
    }
  }

  const isGroup = chatJid.endsWith('@g.us');
  const message: Omit<ProviderMessage, 'media'> = {
    wid: key.id,
    chatJid,
    chatAltJid: isGroup ? undefined : altJid,
    fromMe: Boolean(key.fromMe),
    isGroup,
    participantJid: participantOf(key, isGroup),
    participantName: isGroup ? (raw.pushName ?? undefined) : undefined,
    pushName: isGroup ? undefined : (raw.pushName ?? undefined),
    body,
    mediaType,
    quotedWid: contextInfo?.stanzaId ?? undefined,
    timestamp: toNumber(raw.messageTimestamp) || Math.floor(Date.now() / 1000),
  };
  return { kind: 'message', message, media, raw };
}

/**
 * `messages.update`: status changes become acks; edits and deletions carried as updates too (Baileys
 * gives them the key of the protocol message with the target's id, so fromMe/participant are the sender's).
 */
export function translateUpdates(updates: WAMessageUpdate[]): Translated[] {
  const out: Translated[] = [];
  for (const { key, update } of updates) {
    const wid = key.id;
    const { chatJid } = chatOf(key);
    if (!wid || !chatJid) continue;
    // status ERROR: WhatsApp refused a message it had taken (463, 479 ...), so it was not delivered;
    // its code comes in the stub's parameters and stays on the message (463: stop reaching out)
    if (update.status === proto.WebMessageInfo.Status.ERROR && key.fromMe) {
      const providerError = refusalOf(update.messageStubParameters);
      out.push({
        kind: 'ack',
        wid,
        chatJid,
        ack: ACK.pending,
        error: 'ERR_SENDING_WAPP_MSG',
        ...(providerError ? { providerError } : {}),
      });
    } else if (update.status !== undefined && update.status !== null && key.fromMe)
      out.push({ kind: 'ack', wid, chatJid, ack: statusToAck(update.status) });
    if (
      update.messageStubType === proto.WebMessageInfo.StubType.REVOKE ||
      (update.message === null && update.messageStubType !== undefined)
    ) {
      out.push({ kind: 'revoke', wid, chatJid, ...senderOf(key, chatJid) });
    }
    const edited = normalizeMessageContent(update.message?.editedMessage?.message ?? undefined);
    const editedProto = normalizeMessageContent(update.message)?.protocolMessage?.editedMessage;
    const text =
      edited?.conversation ??
      edited?.extendedTextMessage?.text ??
      editedProto?.conversation ??
      editedProto?.extendedTextMessage?.text;
    if (text !== undefined && text !== null)
      out.push({ kind: 'edit', wid, chatJid, body: text, ...senderOf(key, chatJid) });
  }
  return out;
}

/**
 * The ack a group member's receipts give one of our messages: delivered once a member's phone has
 * it, read once a member read (or played) it. Receipts of our own devices say nothing about delivery.
 */
export function groupReceiptAck(
  receipts: MessageUserReceipt[] | null | undefined,
  ownJids: (string | null | undefined)[],
): number | undefined {
  let ack: number | undefined;
  for (const r of receipts ?? []) {
    if (!r.userJid || ownJids.some((own) => own && areJidsSameUser(own, r.userJid!))) continue;
    const level = r.readTimestamp || r.playedTimestamp ? ACK.read : r.receiptTimestamp ? ACK.delivered : undefined;
    if (level !== undefined && (ack === undefined || level > ack)) ack = level;
  }
  return ack;
}

/**
 * `message-receipt.update`: rc14 reports receipts of group messages only here, one per member
 * (`messages.update` carries those of one-to-one chats). Our own group messages get the highest
 * ack any member's receipt gives, one per message.
 */
export function translateReceipts(
  updates: MessageUserReceiptUpdate[],
  ownJids: (string | null | undefined)[],
): Translated[] {
  const best = new Map<string, { kind: 'ack'; wid: string; chatJid: string; ack: number }>();
  for (const { key, receipt } of updates) {
    const chatJid = key.remoteJid ?? '';
    if (!key.fromMe || !key.id || !chatJid.endsWith('@g.us')) continue;
    const ack = groupReceiptAck([receipt], ownJids);
    if (ack !== undefined && ack > (best.get(key.id)?.ack ?? -1))
      best.set(key.id, { kind: 'ack', wid: key.id, chatJid, ack });
  }
  return [...best.values()];
}

/** How long after it started a call offer is still worth answering (older ones come from the offline backlog). */
const CALL_FRESH_MS = 60_000;

/** A ringing call worth answering (reject, "calls disabled" reply), with the caller's number when `from` is a `@lid` id. */
export function translateCall(
  c: WACallEvent,
  now = Date.now(),
): { callId: string; from: string; fromAlt?: string; timestamp: number } | undefined {
  const startedAt = new Date(c.date).getTime();
  if (c.status !== 'offer' || c.offline || now - startedAt > CALL_FRESH_MS) return undefined;
  return {
    callId: c.id,
    from: c.from,
    fromAlt: c.callerPn && c.callerPn !== c.from ? c.callerPn : undefined,
    timestamp: Math.floor(startedAt / 1000),
  };
}

/** What WhatsApp's refusal codes mean, for the message that shows one. */
const REFUSALS: Record<number, string> = {
  463: 'Reach-out restricted: WhatsApp refused a new chat from this number',
  479: 'Session out of date for this chat',
  421: 'Too many messages',
};

/** A refused message's code and reason, from its stub's parameters (`['463', 'text']`). */
export function refusalOf(
  params: readonly (string | null | undefined)[] | null | undefined,
): ProviderError | undefined {
  const code = Number(params?.[0]);
  if (!Number.isInteger(code) || code <= 0) return undefined;
  return { code, title: REFUSALS[code] ?? params?.[1] ?? `WhatsApp refused the message (${code})` };
}

/** Baileys' reach-out lock (`connection.update.reachoutTimeLock`) as the session reports it. */
export function translateReachoutLock(lock: ReachoutTimelockState | undefined): SessionRestriction['reachoutLock'] {
  if (!lock) return undefined;
  if (!lock.isActive) return { active: false };
  const until = lock.timeEnforcementEnds ? new Date(lock.timeEnforcementEnds) : undefined;
  return {
    active: true,
    ...(until && !Number.isNaN(until.getTime()) ? { until: until.toISOString() } : {}),
    ...(lock.enforcementType ? { type: String(lock.enforcementType) } : {}),
  };
}

/** Baileys' `message-capping.update` (the cycle's new-chat quota; timestamps in seconds). */
export function translateCapping(info: NewChatMessageCapInfo): SessionRestriction['newChatQuota'] {
  if (typeof info.total_quota !== 'number' || typeof info.used_quota !== 'number') return undefined;
  const end = Number(info.cycle_end_timestamp);
  return {
    total: info.total_quota,
    used: info.used_quota,
    ...(Number.isFinite(end) && end > 0 ? { endsAt: new Date(end * 1000).toISOString() } : {}),
  };
}

/** `connection.update` -> what the session manager needs to know. */
export function translateConnection(update: Partial<ConnectionState>): {
  qrcode?: string;
  open?: boolean;
  closedCode?: number;
  closed?: boolean;
} {
  const out: { qrcode?: string; open?: boolean; closedCode?: number; closed?: boolean } = {};
  if (update.qr) out.qrcode = update.qr;
  if (update.connection === 'open') out.open = true;
  if (update.connection === 'close') {
    out.closed = true;
    const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
    out.closedCode = error?.output?.statusCode;
  }
  return out;
}

/** The phone's own number from `creds.me.id` (`5511999999999:12@s.whatsapp.net`). */
export const numberFromJid = (jid: string | undefined) => (jid ? jid.split('@')[0]!.split(':')[0]! : undefined);

/** A Brazilian mobile number without its ninth digit (55 + area code + 9 + 8 digits), else as given. */
const withoutNinthDigit = (digits: string) =>
  digits.length === 13 && digits.startsWith('55') && digits[4] === '9' ? digits.slice(0, 4) + digits.slice(5) : digits;

/**
 * One answer per number asked, in order (Baileys' onWhatsApp lists only the numbers found, under
 * the jid WhatsApp knows them by). A Brazilian mobile number matches its account with or without
 * the ninth digit: accounts older than the ninth digit keep the 8-digit form.
 */
export function answersByNumber(numbers: string[], found: { jid: string; exists: unknown }[]) {
  const jids = new Map<string, string>();
  for (const f of found) if (f.exists) jids.set(numberFromJid(f.jid)!, f.jid);
  return numbers.map((number) => {
    const digits = number.replace(/\D/g, '');
    const jid = jids.get(digits) ?? jids.get(withoutNinthDigit(digits));
    return jid ? { number, exists: true, jid } : { number, exists: false };
  });
}
