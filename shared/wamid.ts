/**
 * Meta's message ids (`wamid.<base64>`) and WhatsApp's own message keys. A wamid is, in the form
 * Meta's webhooks show it, a base64 Thrift compact struct of the WhatsApp key of the message: the
 * chat (field 1: the user part and its server kind), whether the business sent it (field 2) and
 * the message id WhatsApp devices use (field 3, `3EB0...`, `3A...`). Meta does not document that
 * shape, so it is read strictly: anything else is no key, and the wamid is then only its own id.
 *
 * Why it matters: a number on both transports (a WhatsApp Web session and the Cloud API, Meta's
 * "Coexistence") sees the same message through both, with the device id on one side and the
 * wamid on the other. Naming the message by its device id on both sides makes the second copy a
 * repeat that the product already drops (one message, one ticket, whichever side told first).
 */

export interface WhatsappKey {
  /** the chat's user part: the customer's number */
  chat: string;
  fromMe: boolean;
  /** the id the devices use (hex or alphanumeric, 8 to 64 characters) */
  id: string;
}

const STRUCT = 0xc;
const BINARY = 0x8;
const I32 = 0x5;
const TRUE = 0x1;
const FALSE = 0x2;
const field = (delta: number, type: number) => (delta << 4) | type;
const ID = /^[0-9A-Za-z]{8,64}$/;
const CHAT = /^\d{5,20}$/;

/** The WhatsApp key a wamid carries, or undefined when it is not in the known shape. */
export function wamidKey(wamid: string): WhatsappKey | undefined {
  const m = /^wamid\.([A-Za-z0-9+/_-]+={0,2})$/.exec(wamid);
  if (!m) return undefined;
  const bytes = Buffer.from(m[1]!.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let at = 0;
  const byte = () => (at < bytes.length ? bytes[at++]! : -1);
  const varint = () => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = byte();
      if (b < 0) return -1;
      value |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return value >>> 0;
    }
    return -1;
  };
  const text = () => {
    const length = varint();
    if (length < 0 || at + length > bytes.length) return undefined;
    const value = bytes.subarray(at, at + length).toString('latin1');
    at += length;
    return value;
  };
  if (byte() !== field(1, STRUCT) || byte() !== field(1, BINARY)) return undefined;
  const chat = text();
  if (byte() !== field(1, I32) || varint() < 0 || byte() !== 0) return undefined;
  const flag = byte();
  if (flag !== field(1, TRUE) && flag !== field(1, FALSE)) return undefined;
  if (byte() !== field(1, BINARY)) return undefined;
  const id = text();
  if (byte() !== 0 || at !== bytes.length) return undefined;
  if (!chat || !CHAT.test(chat) || !id || !ID.test(id)) return undefined;
  return { chat, fromMe: flag === field(1, TRUE), id };
}

/** A wamid in Meta's shape for a WhatsApp key (the local Graph API fake names messages with it). */
export function wamidOf(key: WhatsappKey): string {
  const str = (value: string) => {
    const raw = Buffer.from(value, 'latin1');
    return Buffer.concat([Buffer.from([raw.length]), raw]);
  };
  const bytes = Buffer.concat([
    Buffer.from([field(1, STRUCT), field(1, BINARY)]),
    str(key.chat),
    // the server kind: 1 is a phone number's (s.whatsapp.net), zigzag-encoded
    Buffer.from([field(1, I32), 2, 0, field(1, key.fromMe ? TRUE : FALSE), field(1, BINARY)]),
    str(key.id),
    Buffer.from([0]),
  ]);
  return `wamid.${bytes.toString('base64')}`;
}

/**
 * The id a message of a connection with both transports is kept under: the device id a wamid
 * carries (what the WhatsApp Web side sees), else the id as given.
 */
export const sharedMessageId = (id: string) => wamidKey(id)?.id ?? id;
