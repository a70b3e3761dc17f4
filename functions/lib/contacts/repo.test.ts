import { describe, it, expect } from 'vitest';
import { contactJid, duplicateGroupOf, duplicateKeys, jidUser, normalizeText, phoneKey } from './repo';

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

describe('duplicate suggestion keys', () => {
  it('a number in any notation has one phone key (spaces, +, national form, the Brazilian ninth digit)', () => {
    const key = phoneKey('5511987654321');
    expect(key).toBe('551187654321');
    for (const written of [
      '+55 (11) 98765-4321',
      '11 98765-4321',
      '011 98765-4321',
      '551187654321',
      '0055 11 98765 4321',
    ])
      expect(phoneKey(written), written).toBe(key);
  });

  it('different numbers keep different keys; a landline keeps its 8 digits; short or foreign numbers stay digits', () => {
    expect(phoneKey('5511987654322')).not.toBe(phoneKey('5511987654321'));
    expect(phoneKey('1133334444')).toBe('551133334444');
    expect(phoneKey('5521987654321')).not.toBe(phoneKey('5511987654321'));
    expect(phoneKey('14155550123')).toBe('14155550123');
    expect(phoneKey('123')).toBeUndefined();
    expect(phoneKey('')).toBeUndefined();
  });

  it('the name key is the normalized name with the last four digits of the number; none for groups or number-only names', () => {
    expect(duplicateKeys({ name: 'María  Silva', number: '5511987654321', isGroup: false })).toEqual({
      phone: '551187654321',
      name: 'maria silva|4321',
    });
    expect(duplicateKeys({ name: '5511987654321', number: '5511987654321', isGroup: false })).toEqual({
      phone: '551187654321',
    });
    expect(duplicateKeys({ name: 'Team', number: '120363000000000001', isGroup: true })).toEqual({});
    // a lid-only contact is indexed under the number its lid was mapped to
    expect(duplicateKeys({ name: 'Ana', number: '', isGroup: false, lidPn: '5511987654321' })).toEqual({
      phone: '551187654321',
      name: 'ana|4321',
    });
    expect(duplicateKeys({ name: 'Ana', number: '', isGroup: false })).toEqual({});
  });

  it('the group key of an index entry is everything before the padded id', () => {
    expect(duplicateGroupOf('maria|4321#0000000012')).toBe('maria|4321');
  });
});
