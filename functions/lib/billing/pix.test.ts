import { describe, expect, it } from 'vitest';
import { crc16, isValidPixPayload, parseTlv, pixPayload, tlv } from './pix';

describe('PIX copy-and-paste payload', () => {
  it('CRC16-CCITT-FALSE: the check value of "123456789" is 29B1', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('reproduces the CRC of the Banco Central manual example (static key, no amount): 1D3D', () => {
    const body =
      '000201' +
      '26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000' +
      '52040000' +
      '5303986' +
      '5802BR' +
      '5913Fulano de Tal' +
      '6008BRASILIA' +
      '62070503***' +
      '6304';
    expect(crc16(body)).toBe('1D3D');
  });

  it('a charge payload carries the EMV fields in order, with the amount and a CRC over everything before it', () => {
    const payload = pixPayload({
      key: 'pix@example.com',
      amount: 49.9,
      merchantName: 'Ação Empresa',
      merchantCity: 'São Paulo',
      txid: 'abc-123',
    });
    // written out by hand from the EMV rules: id, two-digit length, value
    const expectedBody =
      '000201' +
      '2637' +
      '0014br.gov.bcb.pix' +
      '0115pix@example.com' +
      '52040000' +
      '5303986' +
      '540549.90' +
      '5802BR' +
      '5912ACAO EMPRESA' +
      '6009SAO PAULO' +
      '6210' +
      '0506abc123' +
      '6304';
    expect(payload).toBe(expectedBody + crc16(expectedBody));
    expect(isValidPixPayload(payload)).toBe(true);
    expect(parseTlv(payload).get('54')).toBe('49.90');
    // one changed character breaks the CRC
    expect(isValidPixPayload(payload.replace('49.90', '49.99'))).toBe(false);
  });

  it('refuses a field value over 99 characters', () => {
    expect(() => tlv('26', 'x'.repeat(100))).toThrow();
  });
});
