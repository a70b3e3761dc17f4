import { describe, expect, test } from 'vitest';
import {
  ackMark,
  buildTimeline,
  canDeleteMessage,
  mergeMessages,
  parseLocation,
  parseVcard,
  readOnArrival,
} from './timeline';
import {
  audioExtension,
  canRecord,
  canSendText,
  keepRecording,
  matchQuickReplies,
  pickAudioType,
  quickReplyLabel,
  quickReplyQuery,
  signBody,
} from './composer-rules';
import type { Message } from '../tickets/types';

const msg = (id: number, ticketId: number, createdAt: string, extra: Partial<Message> = {}): Message => ({
  id,
  ticketId,
  body: `m${id}`,
  fromMe: false,
  createdAt,
  ...extra,
});

describe('unread badge of the open conversation', () => {
  test("a contact's new message in the open ticket is read as it arrives; ours, updates and other tickets are not", () => {
    const contactMessage = { fromMe: false, ticketId: 7 };
    expect(readOnArrival({ action: 'create', message: contactMessage }, 7)).toBe(true);
    expect(readOnArrival({ action: 'create', message: { fromMe: true, ticketId: 7 } }, 7)).toBe(false);
    expect(readOnArrival({ action: 'update', message: contactMessage }, 7)).toBe(false);
    expect(readOnArrival({ action: 'create', message: contactMessage }, 8)).toBe(false);
    expect(readOnArrival({ action: 'create', message: contactMessage }, null)).toBe(false);
  });
});

describe('message list (attendance.md 2.5)', () => {
  test('pages merge oldest first without duplicates', () => {
    const newest = [msg(3, 1, '2026-01-02T10:00:00Z'), msg(4, 1, '2026-01-02T11:00:00Z')];
    const older = [msg(1, 1, '2026-01-01T10:00:00Z'), msg(3, 1, '2026-01-02T10:00:00Z', { ack: 2 })];
    expect(mergeMessages([newest, older]).map((m) => m.id)).toEqual([1, 3, 4]);
  });

  test("messages follow the server's order (arrival), not WhatsApp's whole-second timestamps", () => {
    const second = '2026-01-02T10:00:00.000Z';
    // ids as the server makes them: the same second, then the millisecond each one was stored
    const um = { ...msg(0, 1, second), id: 'lw0j1c0g0lw0j1c0g5abcdefgh', body: 'um' };
    const dois = { ...msg(0, 1, second), id: 'lw0j1c0g0lw0j1c0g6zzzzzzzz', body: 'dois' };
    const tres = { ...msg(0, 1, second), id: 'lw0j1c0g0lw0j1c0gz00000000', body: 'tres' };
    // our reply, sent within the same second before "tres" reached us (its createdAt is later)
    const reply = { ...msg(0, 1, '2026-01-02T10:00:00.500Z'), id: 'lw0j1c0g0lw0j1c0g7aaaaaaaa', body: 'ok' };
    // the first page from the server, then realtime events in a different order
    const merged = mergeMessages([
      [dois, um],
      [reply, tres],
    ]);
    expect(merged.map((m) => m.body)).toEqual(['um', 'dois', 'ok', 'tres']);
  });

  test('a day separator appears when the date changes', () => {
    const rows = buildTimeline([
      msg(1, 1, '2026-01-01T10:00:00'),
      msg(2, 1, '2026-01-01T12:00:00'),
      msg(3, 1, '2026-01-02T09:00:00'),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'message', 'day', 'message']);
  });

  test('a banner with closed and started times appears when consecutive messages belong to different tickets', () => {
    const rows = buildTimeline([
      msg(1, 1, '2026-01-01T10:00:00', {
        ticket: { id: 1, status: 'closed', closedAt: '2026-01-01T10:30:00', updatedAt: '2026-01-01T10:30:00' },
      }),
      msg(2, 2, '2026-01-01T11:00:00', {
        ticket: { id: 2, status: 'open', createdAt: '2026-01-01T11:00:00', updatedAt: '2026-01-01T11:00:00' },
      }),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'ticketChange', 'message']);
    expect(rows[2]).toMatchObject({ closedAt: '2026-01-01T10:30:00', startedAt: '2026-01-01T11:00:00' });
  });

  test('a message can be deleted only by its sender (fromMe)', () => {
    expect(canDeleteMessage({ fromMe: true })).toBe(true);
    expect(canDeleteMessage({ fromMe: false })).toBe(false);
    expect(canDeleteMessage({ fromMe: true, isDeleted: true })).toBe(false);
  });

  test('location parts are separated by a pipe: preview image, link, optional description', () => {
    expect(parseLocation('data:image/png;base64,xx|https://maps.google.com/?q=1,2|Office')).toEqual({
      image: 'data:image/png;base64,xx',
      link: 'https://maps.google.com/?q=1,2',
      description: 'Office',
    });
    expect(parseLocation('img|link')).toEqual({ image: 'img', link: 'link', description: null });
  });

  test('vcards show name and number', () => {
    expect(
      parseVcard(
        'BEGIN:VCARD\nVERSION:3.0\nFN:Maria Silva\nTEL;type=CELL;waid=5511999998888:+55 11 99999-8888\nEND:VCARD',
      ),
    ).toEqual({ name: 'Maria Silva', number: '5511999998888' });
  });

  test('ack marks: 1 sent, 2 delivered, 3 and above in colour', () => {
    expect(ackMark(0)).toEqual({ icon: 'clock', coloured: false });
    expect(ackMark(1)).toEqual({ icon: 'done', coloured: false });
    expect(ackMark(2)).toEqual({ icon: 'doneAll', coloured: false });
    expect(ackMark(4)).toEqual({ icon: 'doneAll', coloured: true });
    expect(ackMark(5)).toEqual({ icon: 'doneAll', coloured: true });
  });
});

describe('composer rules (attendance.md 2.6)', () => {
  test('empty or blank text is not sent', () => {
    expect(canSendText('')).toBe(false);
    expect(canSendText(' \n\t ')).toBe(false);
    expect(canSendText(' hi ')).toBe(true);
  });

  test('a signed message is prefixed with the attendant name in bold and a newline', () => {
    expect(signBody('Hello', 'Ana', true)).toBe('*Ana:*\nHello');
    expect(signBody('Hello', 'Ana', false)).toBe('Hello');
  });

  test('quick replies are suggested after a leading slash and at least 2 characters, matching on shortcode', () => {
    expect(quickReplyQuery('/')).toBeNull();
    expect(quickReplyQuery('/b')).toBeNull();
    expect(quickReplyQuery('/Bo')).toBe('bo');
    expect(quickReplyQuery('bo')).toBeNull();
    const list = [
      { shortcode: 'bomdia', message: 'Bom dia! Como posso ajudar você hoje com o seu pedido?' },
      { shortcode: 'tchau', message: 'Até logo' },
    ];
    expect(matchQuickReplies(list, 'bo').map((q) => q.shortcode)).toEqual(['bomdia']);
  });

  test('the quick-reply label truncates the message at 35 characters', () => {
    expect(
      quickReplyLabel({ shortcode: 'bomdia', message: 'Bom dia! Como posso ajudar você hoje com o seu pedido?' }),
    ).toBe('bomdia - Bom dia! Como posso ajudar você hoj...');
    expect(quickReplyLabel({ shortcode: 'x', message: 'short' })).toBe('x - short');
  });

  test('a recording smaller than 10000 bytes is discarded', () => {
    expect(keepRecording(9_999)).toBe(false);
    expect(keepRecording(10_000)).toBe(true);
  });

  test('audio recording only while the ticket is open', () => {
    expect(canRecord('open')).toBe(true);
    expect(canRecord('pending')).toBe(false);
    expect(canRecord('closed')).toBe(false);
  });

  test('mp3 when the browser can record it, else the best supported type', () => {
    expect(pickAudioType((t) => t === 'audio/mpeg' || t === 'audio/webm')).toBe('audio/mpeg');
    expect(pickAudioType((t) => t.startsWith('audio/webm'))).toBe('audio/webm;codecs=opus');
    expect(pickAudioType(() => false)).toBeUndefined();
    expect(audioExtension('audio/mpeg')).toBe('mp3');
    expect(audioExtension('audio/ogg;codecs=opus')).toBe('ogg');
  });
});
