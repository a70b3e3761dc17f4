import { describe, it, expect } from 'vitest';
import { proto } from '@whiskeysockets/baileys';
import {
  answersByNumber,
  numberFromJid,
  refusalOf,
  translateCapping,
  translateReachoutLock,
  statusToAck,
  translateCall,
  translateConnection,
  translateUpdates,
  translateUpsert,
} from './translate';

// Event objects as Baileys 7 emits them (recorded shapes, ids shortened).
const textFromLid = {
  key: {
    remoteJid: '201512345678901@lid',
    remoteJidAlt: '5511988887777@s.whatsapp.net',
    fromMe: false,
    id: '3EB0A1B2C3D4',
    addressingMode: 'lid',
  },
  messageTimestamp: 1732262400,
  pushName: 'Maria',
  message: { conversation: 'Olá, preciso de ajuda', messageContextInfo: { deviceListMetadataVersion: 2 } },
};
const quotedReply = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: '3EB0FFEE' },
  messageTimestamp: { low: 1732262500, high: 0, unsigned: true, toNumber: () => 1732262500 },
  pushName: 'Maria',
  message: {
    extendedTextMessage: {
      text: 'this one',
      contextInfo: { stanzaId: '3EB0A1B2C3D4', participant: '5511988887777@s.whatsapp.net' },
    },
  },
};
const image = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IMG1' },
  messageTimestamp: 1732262600,
  message: {
    imageMessage: {
      url: 'https://mmg.whatsapp.net/x',
      mimetype: 'image/jpeg',
      caption: 'the receipt',
      fileLength: 20480,
      mediaKey: new Uint8Array(32),
    },
  },
};
const document = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'DOC1' },
  messageTimestamp: 1732262601,
  message: {
    documentWithCaptionMessage: {
      message: { documentMessage: { mimetype: 'application/pdf', fileName: 'invoice.pdf', fileLength: 1000 } },
    },
  },
};
const groupMessage = {
  key: {
    remoteJid: '120363000000000000@g.us',
    fromMe: false,
    id: 'GRP1',
    participant: '201512345678901@lid',
    participantAlt: '5511977776666@s.whatsapp.net',
  },
  messageTimestamp: 1732262700,
  pushName: 'João',
  message: { conversation: 'bom dia grupo' },
};
const fromPhone = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: 'PHONE1' },
  messageTimestamp: 1732262800,
  message: { conversation: 'typed on the phone' },
};
const location = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'LOC1' },
  messageTimestamp: 1732262900,
  message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Office' } },
};
const revoke = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'PROTO1' },
  messageTimestamp: 1732263000,
  message: {
    protocolMessage: {
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: '3EB0A1B2C3D4' },
      type: proto.Message.ProtocolMessage.Type.REVOKE,
    },
  },
};
const edit = {
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'PROTO2' },
  messageTimestamp: 1732263100,
  message: {
    protocolMessage: {
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: '3EB0FFEE' },
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      editedMessage: { conversation: 'this one, edited' },
    },
  },
};

describe('Baileys translation: messages.upsert', () => {
  it('a text from an @lid chat carries the number jid as chatAltJid (one contact whichever id)', () => {
    const t = translateUpsert(textFromLid as any);
    expect(t).toMatchObject({
      kind: 'message',
      message: {
        wid: '3EB0A1B2C3D4',
        chatJid: '201512345678901@lid',
        chatAltJid: '5511988887777@s.whatsapp.net',
        fromMe: false,
        isGroup: false,
        pushName: 'Maria',
        body: 'Olá, preciso de ajuda',
        mediaType: 'chat',
        timestamp: 1732262400,
      },
    });
  });

  it('a quoted reply names the quoted message; Long timestamps become numbers', () => {
    const t = translateUpsert(quotedReply as any);
    expect(t?.kind === 'message' && t.message).toMatchObject({
      body: 'this one',
      quotedWid: '3EB0A1B2C3D4',
      timestamp: 1732262500,
    });
  });

  it('image and document (with caption wrapper) become media messages with mimetype, name and size', () => {
    const img = translateUpsert(image as any);
    expect(img).toMatchObject({
      kind: 'message',
      message: { mediaType: 'image', body: 'the receipt' },
      media: { mimetype: 'image/jpeg', size: 20480 },
    });
    const doc = translateUpsert(document as any);
    expect(doc).toMatchObject({
      kind: 'message',
      message: { mediaType: 'document', body: 'invoice.pdf' },
      media: { mimetype: 'application/pdf', fileName: 'invoice.pdf' },
    });
  });

  it('a group message keeps the group as chat and the author (number jid preferred) as participant', () => {
    const t = translateUpsert(groupMessage as any);
    expect(t?.kind === 'message' && t.message).toMatchObject({
      chatJid: '120363000000000000@g.us',
      isGroup: true,
      participantJid: '5511977776666@s.whatsapp.net',
      participantName: 'João',
    });
  });

  it('a message typed on the phone itself is fromMe', () => {
    expect(translateUpsert(fromPhone as any)).toMatchObject({
      kind: 'message',
      message: { fromMe: true, body: 'typed on the phone' },
    });
  });

  it('a location becomes locationMessage with a maps link in the pipe-separated body', () => {
    const t = translateUpsert(location as any);
    expect(t?.kind === 'message' && t.message.mediaType).toBe('locationMessage');
    expect(t?.kind === 'message' && t.message.body).toContain('https://maps.google.com/maps?q=-23.5%2C-46.6');
    expect(t?.kind === 'message' && t.message.body.split('|')).toHaveLength(3);
  });

  it('a reaction names the message it marks, its emoji (empty when taken back) and its own id', () => {
    const reaction = (text: string, fromMe = false) => ({
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe, id: 'REACT1' },
      messageTimestamp: 1732263200,
      message: {
        reactionMessage: {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: '3EB0OURS' },
          text,
          senderTimestampMs: 1732263200000,
        },
      },
    });
    expect(translateUpsert(reaction('👍') as any)).toEqual({
      kind: 'reaction',
      wid: '3EB0OURS',
      chatJid: '5511988887777@s.whatsapp.net',
      emoji: '👍',
      reactionId: 'REACT1',
      fromMe: false,
      participantJid: undefined,
    });
    expect(translateUpsert(reaction('', true) as any)).toMatchObject({ kind: 'reaction', emoji: '', fromMe: true });
  });

  it('protocol messages: a revoke is a deletion by the contact, an edit carries the new text', () => {
    expect(translateUpsert(revoke as any)).toEqual({
      kind: 'revoke',
      wid: '3EB0A1B2C3D4',
      chatJid: '5511988887777@s.whatsapp.net',
      fromMe: false,
      participantJid: undefined,
    });
    expect(translateUpsert(edit as any)).toEqual({
      kind: 'edit',
      wid: '3EB0FFEE',
      chatJid: '5511988887777@s.whatsapp.net',
      body: 'this one, edited',
      fromMe: false,
      participantJid: undefined,
    });
  });

  it('an edit or revoke names its sender (the protocol message key), not the key it targets', () => {
    const inGroup = {
      key: {
        remoteJid: '120363000000000000@g.us',
        fromMe: false,
        id: 'PROTO3',
        participant: '5511977776666@s.whatsapp.net',
      },
      message: {
        protocolMessage: {
          // the target claims to be ours: the sender is still the participant
          key: { remoteJid: '120363000000000000@g.us', fromMe: true, id: 'OURS1' },
          type: proto.Message.ProtocolMessage.Type.REVOKE,
        },
      },
    };
    expect(translateUpsert(inGroup as any)).toEqual({
      kind: 'revoke',
      wid: 'OURS1',
      chatJid: '120363000000000000@g.us',
      fromMe: false,
      participantJid: '5511977776666@s.whatsapp.net',
    });
  });

  it('a message that could not be decrypted (CIPHERTEXT stub, no content) is reported as such, never as a message', () => {
    const stub = {
      key: {
        remoteJid: '5511988887777@s.whatsapp.net',
        remoteJidAlt: '201577777777777@lid',
        fromMe: false,
        id: '3EB0BADMAC',
      },
      messageTimestamp: 1_700_000_000,
      pushName: 'Maria',
      messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
      messageStubParameters: ['Bad MAC'],
    };
    // who wrote and when, as for a message: the ticket shows a placeholder the real message replaces
    expect(translateUpsert(stub as never)).toEqual({
      kind: 'undecryptable',
      wid: '3EB0BADMAC',
      chatJid: '5511988887777@s.whatsapp.net',
      chatAltJid: '201577777777777@lid',
      isGroup: false,
      participantJid: undefined,
      participantName: undefined,
      pushName: 'Maria',
      timestamp: 1_700_000_000,
      reason: 'Bad MAC',
    });
    // in a group: the group is the chat, the participant wrote it
    const inGroup = {
      ...stub,
      key: {
        remoteJid: '120363000000000000@g.us',
        participant: '5511977776666@s.whatsapp.net',
        fromMe: false,
        id: '3EB0BADMAC2',
      },
    };
    expect(translateUpsert(inGroup as never)).toEqual(
      expect.objectContaining({
        kind: 'undecryptable',
        chatJid: '120363000000000000@g.us',
        isGroup: true,
        participantJid: '5511977776666@s.whatsapp.net',
        participantName: 'Maria',
        pushName: undefined,
      }),
    );
    // our own message's stub (a copy on another device) is not the customer's lost message
    expect(translateUpsert({ ...stub, key: { ...stub.key, fromMe: true } } as never)).toBeUndefined();
  });

  it('status broadcasts and reactions are not messages', () => {
    expect(
      translateUpsert({ key: { remoteJid: 'status@broadcast', id: 'S1' }, message: { conversation: 'story' } } as any),
    ).toBeUndefined();
    expect(
      translateUpsert({
        key: { remoteJid: '5511@s.whatsapp.net', id: 'R1' },
        message: { reactionMessage: { text: '👍' } },
      } as any),
    ).toBeUndefined();
  });
});

describe('Baileys translation: messages.update', () => {
  it('status updates of our messages become acks (2 server ack -> 1 sent, 3 -> 2 delivered, 4 -> 3 read)', () => {
    const out = translateUpdates([
      { key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'OUT1', fromMe: true }, update: { status: 2 } },
      { key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'OUT1', fromMe: true }, update: { status: 3 } },
      { key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'OUT1', fromMe: true }, update: { status: 4 } },
    ] as any);
    expect(out.map((o) => o.kind === 'ack' && o.ack)).toEqual([1, 2, 3]);
    expect(statusToAck(5)).toBe(4);
  });

  it('an edit delivered as an update carries the new text', () => {
    const out = translateUpdates([
      {
        key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'IN1', fromMe: false },
        update: { message: { editedMessage: { message: { conversation: 'fixed typo' } } } },
      },
    ] as any);
    expect(out).toEqual([
      {
        kind: 'edit',
        wid: 'IN1',
        chatJid: '5511988887777@s.whatsapp.net',
        body: 'fixed typo',
        fromMe: false,
        participantJid: undefined,
      },
    ]);
  });
});

describe('Baileys translation: connection.update and creds', () => {
  it('a qr update shows the QR code; open is CONNECTED; close carries the status code', () => {
    expect(translateConnection({ qr: '2@abc,def,ghi', connection: 'connecting' } as any)).toEqual({
      qrcode: '2@abc,def,ghi',
    });
    expect(translateConnection({ connection: 'open' } as any)).toEqual({ open: true });
    const closed = translateConnection({
      connection: 'close',
      lastDisconnect: { error: { output: { statusCode: 515 } }, date: new Date() },
    } as any);
    expect(closed).toEqual({ closed: true, closedCode: 515 });
  });

  it('the phone number comes from creds.me.id without the device suffix', () => {
    expect(numberFromJid('5511999990000:12@s.whatsapp.net')).toBe('5511999990000');
  });

  it('a send WhatsApp refuses after taking it (status ERROR, 463) is an error ack, not "sent" forever', () => {
    const refused = translateUpdates([
      {
        key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: 'OUT9' },
        update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: ['463'] },
      },
    ]);
    expect(refused).toEqual([
      {
        kind: 'ack',
        wid: 'OUT9',
        chatJid: '5511988887777@s.whatsapp.net',
        ack: 0,
        error: 'ERR_SENDING_WAPP_MSG',
        providerError: { code: 463, title: expect.stringMatching(/Reach-out restricted/) },
      },
    ]);
  });

  it('a round video note (ptvMessage) is a video, not dropped', () => {
    const t = translateUpsert({
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'PTV1' },
      messageTimestamp: 1732262800,
      message: { ptvMessage: { mimetype: 'video/mp4', fileLength: 4096, seconds: 5 } },
    } as never);
    expect(t?.kind === 'message' && t.message.mediaType).toBe('video');
    expect(t?.kind === 'message' && t.media?.mimetype).toBe('video/mp4');
  });

  it("a message to a contact's broadcast list is a message in the sender's chat, not a chat named by the list's timestamp", () => {
    const t = translateUpsert({
      key: {
        remoteJid: '1700000000@broadcast',
        participant: '201512345678901@lid',
        participantAlt: '5511988887777@s.whatsapp.net',
        fromMe: false,
        id: 'BC1',
      },
      messageTimestamp: 1732262900,
      pushName: 'Maria',
      message: { conversation: 'promo' },
    } as never);
    expect(t?.kind === 'message' && t.message).toMatchObject({
      chatJid: '201512345678901@lid',
      chatAltJid: '5511988887777@s.whatsapp.net',
      isGroup: false,
    });
  });

  it('a ringing call names the caller by number too (callerPn); offline or old offers are not answered', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    const offer = {
      chatId: '201512345678901@lid',
      from: '201512345678901@lid',
      callerPn: '5511988887777@s.whatsapp.net',
      id: 'CALL1',
      date: new Date(now - 2_000),
      offline: false,
      status: 'offer' as const,
      isVideo: false,
      isGroup: false,
    };
    expect(translateCall(offer, now)).toEqual({
      callId: 'CALL1',
      from: '201512345678901@lid',
      fromAlt: '5511988887777@s.whatsapp.net',
      timestamp: Math.floor((now - 2_000) / 1000),
    });
    expect(translateCall({ ...offer, offline: true }, now)).toBeUndefined();
    expect(translateCall({ ...offer, date: new Date(now - 10 * 60_000) }, now)).toBeUndefined();
    expect(translateCall({ ...offer, status: 'terminate' }, now)).toBeUndefined();
  });
});

describe('Baileys translation: number checks', () => {
  it('one answer per number asked, in order, found by the jid WhatsApp answers with (a Brazilian mobile with or without its ninth digit)', () => {
    const answers = answersByNumber(
      ['5511988887777', '+55 21 98765-4321', '14155550100', '5511911112222'],
      [
        { jid: '5511988887777@s.whatsapp.net', exists: true },
        // an account older than the ninth digit
        { jid: '552187654321@s.whatsapp.net', exists: true },
        { jid: '14155550100@s.whatsapp.net', exists: false },
      ],
    );
    expect(answers).toEqual([
      { number: '5511988887777', exists: true, jid: '5511988887777@s.whatsapp.net' },
      { number: '+55 21 98765-4321', exists: true, jid: '552187654321@s.whatsapp.net' },
      { number: '14155550100', exists: false },
      { number: '5511911112222', exists: false },
    ]);
  });
});

describe("WhatsApp's warnings before a ban (R5)", () => {
  it('a refused message keeps its code: 463 and 479 explained, others as WhatsApp put them', () => {
    expect(refusalOf(['463', 'whatever'])).toEqual({ code: 463, title: expect.stringMatching(/Reach-out restricted/) });
    expect(refusalOf(['479'])?.code).toBe(479);
    expect(refusalOf(['500', 'server said no'])).toEqual({ code: 500, title: 'server said no' });
    expect(refusalOf(['not a code'])).toBeUndefined();
    expect(refusalOf(undefined)).toBeUndefined();
  });

  it('a refused status carries the code on its ack', () => {
    const [ack] = translateUpdates([
      {
        key: { id: 'W1', remoteJid: '5511999990000@s.whatsapp.net', fromMe: true },
        update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: ['463'] },
      },
    ]);
    expect(ack).toMatchObject({ kind: 'ack', ack: 0, error: 'ERR_SENDING_WAPP_MSG', providerError: { code: 463 } });
  });

  it('the reach-out lock: set with its end and type, lifted, or no news', () => {
    const ends = new Date('2026-12-02T12:00:00.000Z');
    expect(
      translateReachoutLock({ isActive: true, timeEnforcementEnds: ends, enforcementType: 'DEFAULT' as never }),
    ).toEqual({ active: true, until: '2026-12-02T12:00:00.000Z', type: 'DEFAULT' });
    expect(translateReachoutLock({ isActive: false })).toEqual({ active: false });
    expect(translateReachoutLock(undefined)).toBeUndefined();
  });

  it('the new-chat quota of the cycle, its end from seconds; incomplete news is none', () => {
    expect(translateCapping({ total_quota: 50, used_quota: 12, cycle_end_timestamp: '1764676800' })).toEqual({
      total: 50,
      used: 12,
      endsAt: '2025-12-02T12:00:00.000Z',
    });
    expect(translateCapping({ used_quota: 3 })).toBeUndefined();
  });
});
