/**
 * PIX "copia e cola" payloads (BR Code, EMV QRCPS merchant-presented mode, as the Banco Central's
 * manual defines it): a string of TLV fields (2-digit id, 2-digit length, value) closed by field 63,
 * the CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) of everything before it including "6304".
 */

/** CRC-16/CCITT-FALSE over the UTF-8 bytes, as 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** One EMV field: id, length of the value (2 digits), value. */
export function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Letters and digits of a name without accents, upper case, cut to `max` (fields 59 and 60). */
const plain = (text: string, max: number) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .toUpperCase()
    .slice(0, max) || 'NA';

export interface PixCharge {
  /** the receiver's PIX key (e-mail, phone, CPF/CNPJ or random key) */
  key: string;
  /** in reais; omitted: the payer types it */
  amount?: number;
  merchantName: string;
  merchantCity: string;
  /** transaction id: up to 25 letters and digits ("***" when none) */
  txid?: string;
  description?: string;
}

export function pixPayload(charge: PixCharge): string {
  const account =
    tlv('00', 'br.gov.bcb.pix') +
    tlv('01', charge.key) +
    (charge.description ? tlv('02', charge.description.slice(0, 40)) : '');
  const txid = (charge.txid ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
  const body =
    tlv('00', '01') +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (charge.amount !== undefined ? tlv('54', charge.amount.toFixed(2)) : '') +
    tlv('58', 'BR') +
    tlv('59', plain(charge.merchantName, 25)) +
    tlv('60', plain(charge.merchantCity, 15)) +
    tlv('62', tlv('05', txid)) +
    '6304';
  return body + crc16(body);
}

/** Splits a payload into its top-level fields (for checks); throws on a malformed one. */
export function parseTlv(payload: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || Number.isNaN(length) || i + 4 + length > payload.length) {
      throw new Error(`malformed EMV field at ${i}`);
    }
    out.set(id, payload.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return out;
}

/** A payload is valid when its fields parse and field 63 is the CRC of what precedes it. */
export function isValidPixPayload(payload: string): boolean {
  try {
    const fields = parseTlv(payload);
    const crc = fields.get('63');
    return Boolean(crc) && payload.endsWith(`6304${crc}`) && crc16(payload.slice(0, -4)) === crc;
  } catch {
    return false;
  }
}
