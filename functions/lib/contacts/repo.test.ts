import { describe, it, expect } from 'vitest';
import { contactJid, jidUser, normalizeText } from './repo';

describe('contact keys and ids', () => {
  it('names are indexed lower case without accents, spaces collapsed (search "maria" finds "María")', () => {
    expect(normalizeText('  María   Conceição ')).toBe('maria conceicao');
    expect(normalizeText('JOÃO')).toBe('joao');
  });

  it('a jid is reduced to its user part, device suffix dropped', () => {
    expect(jidUser('5511999990000:12@s.whatsapp.net')).toBe('5511999990000');
    expect(jidUser('123456789@lid')).toBe('123456789');
  });

  it('send commands address the number, the group, or the lid when no number is known', () => {
    expect(contactJid({ number: '5511999990000', isGroup: false })).toBe('5511999990000@s.whatsapp.net');
    expect(contactJid({ number: '120363000000000001', isGroup: true })).toBe('120363000000000001@g.us');
    expect(contactJid({ number: '', lid: '998877', isGroup: false })).toBe('998877@lid');
  });
});
