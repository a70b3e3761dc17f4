import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { CloudWebhookValue } from '#shared/schemas/whatsapp-cloud';
import { cloudEvents } from './mapping';
import { signatureMatches } from './webhook';

const conn = { companyId: 7, whatsappId: 3 };
const value = (fields: Record<string, unknown>) =>
  CloudWebhookValue.parse({
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550001111', phone_number_id: '123456789012345' },
    ...fields,
  });
const msg = (fields: Record<string, unknown>) => ({
  from: '5511988887777',
  id: 'wamid.A',
  timestamp: '1764300000',
  ...fields,
});

describe('Cloud API webhook -> inbound events', () => {
  it('a text becomes a message event: wamid as wid, the number as chat jid, the profile name as push name', () => {
    const [event] = cloudEvents(
      value({
        contacts: [{ wa_id: '5511988887777', profile: { name: 'Ana' } }],
        messages: [msg({ type: 'text', text: { body: 'oi' }, context: { id: 'wamid.Q' } })],
      }),
      conn,
    );
    expect(event).toEqual({
      type: 'message',
      ...conn,
      message: {
        wid: 'wamid.A',
        chatJid: '5511988887777@s.whatsapp.net',
        fromMe: false,
        isGroup: false,
        pushName: 'Ana',
        body: 'oi',
        mediaType: 'chat',
        quotedWid: 'wamid.Q',
        timestamp: 1764300000,
      },
    });
  });

  it("a shared contact card becomes a vCard message, as WhatsApp Web's cards are shown", () => {
    const [event] = cloudEvents(
      value({
        messages: [
          msg({
            type: 'contacts',
            contacts: [
              {
                name: { formatted_name: 'Bia Souza', first_name: 'Bia', last_name: 'Souza' },
                phones: [{ phone: '+55 11 97777-6666', wa_id: '5511977776666', type: 'CELL' }],
                emails: [{ email: 'bia@example.com' }],
              },
            ],
          }),
        ],
      }),
      conn,
    );
    expect(event).toMatchObject({ type: 'message', message: { mediaType: 'vcard' } });
    const body = (event as { message: { body: string } }).message.body;
    expect(body.split('\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Souza;Bia;;;',
      'FN:Bia Souza',
      'TEL;type=CELL;waid=5511977776666:+55 11 97777-6666',
      'EMAIL:bia@example.com',
      'END:VCARD',
    ]);
  });

  it('button and list replies become the body; a location the runner shape; media keeps its id for the consumer; a reaction is a reaction', () => {
    const events = cloudEvents(
      value({
        messages: [
          msg({
            id: 'b',
            type: 'interactive',
            interactive: { type: 'button_reply', button_reply: { id: 'x', title: 'Sim' } },
          }),
          msg({
            id: 'l',
            type: 'interactive',
            interactive: { type: 'list_reply', list_reply: { id: 'y', title: 'Suporte' } },
          }),
          msg({ id: 't', type: 'button', button: { text: 'Quero', payload: 'p' } }),
          msg({ id: 'g', type: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'Loja' } }),
          msg({ id: 'i', type: 'image', image: { id: 'M1', mime_type: 'image/jpeg', caption: 'foto' } }),
          msg({ id: 'r', type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } }),
          msg({ id: 'u', type: 'unsupported' }),
        ],
      }),
      conn,
    );
    const messages = events.flatMap((e) => (e.type === 'message' ? [e.message] : []));
    // a reaction is its own event (messages/reactions.ts); an unsupported type is none
    expect(events.filter((e) => e.type === 'reaction')).toEqual([
      {
        type: 'reaction',
        ...conn,
        wid: 'wamid.X',
        chatJid: '5511988887777@s.whatsapp.net',
        emoji: '👍',
        reactionId: 'r',
        fromMe: false,
      },
    ]);
    expect(messages.map((m) => [m?.wid, m?.body, m?.mediaType])).toEqual([
      ['b', 'Sim', 'chat'],
      ['l', 'Suporte', 'chat'],
      ['t', 'Quero', 'chat'],
      ['g', '|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Loja', 'locationMessage'],
      ['i', 'foto', 'image'],
    ]);
    expect(messages[4]?.cloudMedia).toEqual({ id: 'M1', mimetype: 'image/jpeg' });
  });

  it("a Coexistence echo is the business's own message in the chat of the user it went to", () => {
    const [event] = cloudEvents(
      value({
        message_echoes: [
          msg({ id: 'wamid.E', from: '15550001111', to: '+55 11 98888-7777', type: 'text', text: { body: 'do app' } }),
        ],
      }),
      conn,
    );
    expect(event).toMatchObject({
      type: 'message',
      message: { wid: 'wamid.E', chatJid: '5511988887777@s.whatsapp.net', fromMe: true, body: 'do app' },
    });
  });

  it('statuses become acks (sent 1, delivered 2, read 3); failed keeps Meta code and title; others are ignored', () => {
    const status = (s: string, extra = {}) => ({
      id: 'wamid.S',
      status: s,
      timestamp: '1',
      recipient_id: '5511900001111',
      ...extra,
    });
    const events = cloudEvents(
      value({
        statuses: [
          status('sent'),
          status('delivered'),
          status('read'),
          status('deleted'),
          status('failed', { errors: [{ code: 131047, title: 'Re-engagement message' }] }),
        ],
      }),
      conn,
    );
    expect(events).toEqual([
      { type: 'ack', ...conn, wid: 'wamid.S', chatJid: '5511900001111@s.whatsapp.net', ack: 1 },
      { type: 'ack', ...conn, wid: 'wamid.S', chatJid: '5511900001111@s.whatsapp.net', ack: 2 },
      { type: 'ack', ...conn, wid: 'wamid.S', chatJid: '5511900001111@s.whatsapp.net', ack: 3 },
      {
        type: 'ack',
        ...conn,
        wid: 'wamid.S',
        chatJid: '5511900001111@s.whatsapp.net',
        ack: 0,
        error: 'ERR_SENDING_WAPP_MSG',
        providerError: { code: 131047, title: 'Re-engagement message' },
      },
    ]);
  });
});

describe('X-Hub-Signature-256', () => {
  const raw = Buffer.from('{"text":"Ol\\u00e1 \\ud83d\\ude00"}');
  const sign = (body: Buffer, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('accepts the HMAC-SHA256 of the exact bytes with the app secret, and nothing else', () => {
    expect(signatureMatches(raw, sign(raw, 's3cret'), 's3cret')).toBe(true);
    expect(signatureMatches(raw, sign(raw, 's3cret').toUpperCase().replace('SHA256=', 'sha256='), 's3cret')).toBe(true);
    expect(signatureMatches(raw, sign(raw, 'other'), 's3cret')).toBe(false);
    // the same JSON re-serialized (Meta's escapes turned into UTF-8) is other bytes
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
    expect(signatureMatches(reserialized, sign(raw, 's3cret'), 's3cret')).toBe(false);
    for (const header of [undefined, '', 'sha256=', 'sha1=abc', sign(raw, 's3cret').slice(0, -2)])
      expect(signatureMatches(raw, header, 's3cret')).toBe(false);
  });
});
