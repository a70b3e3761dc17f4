import {
  ACK,
  type InboundEvent,
  type InboundMessage,
  type MessagePricing,
  type NormalizedMediaType,
} from '#shared/whatsapp-protocol';
import type {
  CloudNumberQualityValue,
  CloudWebhookMessage,
  CloudWebhookStatus,
  CloudWebhookValue,
} from '#shared/schemas/whatsapp-cloud';

/**
 * Meta's webhook `value` (fields `messages` and `smb_message_echoes`) as the product's normalized
 * inbound events, so the same pipeline serves both providers: `messages[]` become `message` events,
 * `message_echoes[]` (Coexistence) our own `fromMe` messages, `statuses[]` `ack` events. Pure: the webhook route verifies, this translates, the queue carries.
 */

interface Connection {
  companyId: number;
  whatsappId: number;
}

/** A Cloud API user's chat: their WhatsApp id (`wa_id`, the number) as a jid. */
export const cloudChatJid = (waId: string) => `${waId.replace(/\D/g, '')}@s.whatsapp.net`;

const STATUS_ACK: Record<string, number> = { sent: ACK.sent, delivered: ACK.delivered, read: ACK.read };

const MEDIA_KINDS: Record<string, NormalizedMediaType> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  document: 'document',
  sticker: 'sticker',
};

function locationBody(loc: NonNullable<CloudWebhookMessage['location']>) {
  // the runner's shape (thumbnail|link|description), without a thumbnail: Meta sends none
  const link = `https://maps.google.com/maps?q=${loc.latitude}%2C${loc.longitude}&z=17`;
  const description = [loc.name, loc.address].filter(Boolean).join(' - ');
  return ['', link, description].filter((p, i) => i < 2 || p).join('|');
}

/** vCard text (3.0) of one shared card: the name, phones (with the WhatsApp id), e-mails, company. */
function vcardOf(c: NonNullable<CloudWebhookMessage['contacts']>[number]) {
  const clean = (v: string | undefined) => (v ?? '').replace(/[\r\n;]/g, ' ').trim();
  const name =
    clean(c.name?.formatted_name) || [clean(c.name?.first_name), clean(c.name?.last_name)].filter(Boolean).join(' ');
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${clean(c.name?.last_name)};${clean(c.name?.first_name)};;;`,
    `FN:${name}`,
  ];
  for (const p of c.phones ?? []) {
    if (!p.phone && !p.wa_id) continue;
    const waid = p.wa_id ? `;waid=${p.wa_id.replace(/\D/g, '')}` : '';
    lines.push(`TEL;type=${clean(p.type) || 'CELL'}${waid}:${clean(p.phone) || `+${p.wa_id}`}`);
  }
  for (const e of c.emails ?? []) if (e.email) lines.push(`EMAIL:${clean(e.email)}`);
  if (c.org?.company) lines.push(`ORG:${clean(c.org.company)}`);
  lines.push('END:VCARD');
  return lines.join('\n');
}

/** One inbound message; undefined for what the product does not show (reactions, system notices, unsupported). */
export function cloudMessage(m: CloudWebhookMessage, pushName: string | undefined): InboundMessage | undefined {
  let body = '';
  let mediaType: NormalizedMediaType = 'chat';
  let cloudMedia: InboundMessage['cloudMedia'];
  switch (m.type) {
    case 'text':
      body = m.text?.body ?? '';
      break;
    case 'button':
      body = m.button?.text ?? m.button?.payload ?? '';
      break;
    case 'interactive':
      body = m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? '';
      break;
    case 'contacts':
      if (!m.contacts?.length) return undefined;
      // the cards as vCard text, the shape the WhatsApp Web side gives and the bubble shows
      body = m.contacts.map(vcardOf).join('\n');
      mediaType = 'vcard';
      break;
    case 'location':
      if (!m.location) return undefined;
      body = locationBody(m.location);
      mediaType = 'locationMessage';
      break;
    default: {
      const kind = MEDIA_KINDS[m.type];
      const ref = kind ? m[m.type as 'image' | 'audio' | 'video' | 'document' | 'sticker'] : undefined;
      if (!kind || !ref) return undefined;
      mediaType = kind;
      body = ref.caption ?? ref.filename ?? '';
      cloudMedia = {
        id: ref.id,
        mimetype: ref.mime_type ?? 'application/octet-stream',
        ...(ref.filename ? { fileName: ref.filename } : {}),
      };
    }
  }
  return {
    wid: m.id,
    chatJid: cloudChatJid(m.from),
    fromMe: false,
    isGroup: false,
    ...(pushName ? { pushName } : {}),
    body,
    mediaType,
    ...(cloudMedia ? { cloudMedia } : {}),
    ...(m.context?.id ? { quotedWid: m.context.id } : {}),
    timestamp: Number(m.timestamp) || Math.floor(Date.now() / 1000),
  };
}

/** One status: `sent` 1, `delivered` 2, `read` 3; `failed` keeps Meta's first error. Others are ignored. */
export function cloudAck(s: CloudWebhookStatus, conn: Connection): InboundEvent | undefined {
  const base = { type: 'ack' as const, ...conn, wid: s.id, chatJid: cloudChatJid(s.recipient_id) };
  if (s.status === 'failed') {
    const first = s.errors?.[0];
    return {
      ...base,
      ack: ACK.pending,
      error: 'ERR_SENDING_WAPP_MSG',
      ...(first ? { providerError: { code: first.code, title: first.title ?? first.message ?? '' } } : {}),
    };
  }
  const ack = STATUS_ACK[s.status];
  if (ack === undefined) return undefined;
  const pricing = cloudPricing(s);
  return { ...base, ack, ...(pricing ? { pricing } : {}) };
}

/** What Meta prices the message as, when the status says (charged unless Meta's `type` makes it free). */
export function cloudPricing(s: CloudWebhookStatus): MessagePricing | undefined {
  const p = s.pricing;
  if (!p?.category) return undefined;
  const charged = p.type ? p.type === 'regular' : p.billable !== false;
  return { category: p.category.toLowerCase(), charged, at: Number(s.timestamp) || Math.floor(Date.now() / 1000) };
}

/** A reaction (`type: reaction`): an emoji on the message `reaction.message_id`, empty when taken back. */
export function cloudReaction(m: CloudWebhookMessage, conn: Connection, fromMe: boolean): InboundEvent | undefined {
  if (m.type !== 'reaction' || !m.reaction) return undefined;
  return {
    type: 'reaction',
    ...conn,
    wid: m.reaction.message_id,
    chatJid: cloudChatJid(m.from),
    emoji: m.reaction.emoji ?? '',
    reactionId: m.id,
    fromMe,
  };
}

/** Every event of one webhook `value` for the connection its phone-number id names, in Meta's order. */
export function cloudEvents(value: CloudWebhookValue, conn: Connection): InboundEvent[] {
  const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
  const events: InboundEvent[] = [];
  for (const m of value.messages ?? []) {
    const reaction = cloudReaction(m, conn, false);
    if (reaction) {
      events.push(reaction);
      continue;
    }
    const message = cloudMessage(m, names.get(m.from));
    if (message) events.push({ type: 'message', ...conn, message });
  }
  // Coexistence: the business's own messages from the WhatsApp Business app, in the customer's chat
  for (const echo of value.message_echoes ?? []) {
    const reaction = cloudReaction({ ...echo, from: echo.to }, conn, true);
    if (reaction) {
      events.push(reaction);
      continue;
    }
    const message = cloudMessage({ ...echo, from: echo.to }, undefined);
    if (message) events.push({ type: 'message', ...conn, message: { ...message, fromMe: true } });
  }
  for (const s of value.statuses ?? []) {
    const ack = cloudAck(s, conn);
    if (ack) events.push(ack);
  }
  return events;
}

/** Meta's quality event of a number: the event, and the portfolio's messaging limit when it says. */
export function numberQualityEvent(
  v: CloudNumberQualityValue,
  conn: Connection,
  at: number,
): Extract<InboundEvent, { type: 'numberQuality' }> {
  const raw = v.max_daily_conversations_per_business ?? v.current_limit;
  const messagingLimit =
    typeof raw === 'number' ? raw : /^-?\d+$/.test(raw ?? '') ? Number(raw) : messagingLimitOf(raw);
  return {
    type: 'numberQuality',
    companyId: conn.companyId,
    whatsappId: conn.whatsappId,
    event: v.event.toUpperCase(),
    ...(messagingLimit !== undefined ? { messagingLimit } : {}),
    at,
  };
}

/**
 * Meta's messaging limit tiers as a number of customers per moving 24 hours (`TIER_2K` 2000,
 * `TIER_UNLIMITED` -1); an unknown value is left unknown.
 */
export function messagingLimitOf(tier: string | undefined): number | undefined {
  if (!tier) return undefined;
  if (/^TIER_UNLIMITED$/i.test(tier)) return -1;
  const m = /^TIER_(\d+)(K?)$/i.exec(tier);
  return m ? Number(m[1]) * (m[2] ? 1000 : 1) : undefined;
}
