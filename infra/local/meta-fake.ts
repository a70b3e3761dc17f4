import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { wamidOf } from '../../shared/wamid';

/**
 * A fake of Meta's Graph API for WhatsApp Cloud API connections (local stack only, at
 * `/@meta/v23.0`; WHATSAPP_GRAPH_URL points here). Numbers exist once a test scripts them, with
 * the access token and app secret Meta would hold for them:
 * - `GET /v*\/{phone-number-id}`: the number (status, display number), Bearer token required
 *   (a wrong or expired one is Meta's 401 with code 190);
 * - `POST /v*\/{phone-number-id}/messages`: a new wamid, or the next scripted error;
 * - `GET /v*\/{media-id}`: a download URL on this fake, valid 5 minutes;
 * - `POST /v*\/{phone-number-id}/media` (multipart: messaging_product, type, file): a media id whose
 *   bytes `GET /v*\/{media-id}` serves again; a media send naming an unknown id is Meta's 131053;
 * - `GET /v*\/{waba-id}/message_templates?limit&after`: the business account's templates, paged;
 *   a `template` send is checked as Meta does: unknown name or language 132001, not approved
 *   132015/132016 (paused, disabled) or 132001, wrong number of parameters 132000;
 * - `GET /@meta/_media/{media-id}`: the bytes, with the number's Bearer token (401 without).
 * Test hooks:
 * - `POST /@meta/_script {phoneNumberId, accessToken, appSecret, wabaId?, displayPhoneNumber?, status?,
 *   tokenExpired?, sendErrors?: [{code, title, httpStatus?}], templates?: [Graph template],
 *   messagingLimit?: 'TIER_250' | 'TIER_2K' | ... | 'TIER_UNLIMITED', qualityRating?}`: creates or changes a number (`templates` replace its business account's; ids are given when missing);
 * - `POST /@meta/_inbound {phoneNumberId, from, name?, text? | media? | button? | location? | reaction? {messageId, emoji?}, contextId?,
 *   wamid? | deviceId? (the message's device id, in Meta's wamid shape), echo?, signature?: 'none' | 'wrong', utf8?, contentType?}`: builds Meta's webhook JSON for a
 *   customer's message (with `echo`, the business's own message to `from` from the WhatsApp Business
 *   app: field `smb_message_echoes`), signs it with the number's app secret as Meta does (over the exact bytes
 *   sent; non-ASCII escaped as `\uXXXX` like Meta unless `utf8`) and posts it to the stack's webhook;
 * - `POST /@meta/_status {phoneNumberId, wamid, recipient, status, errorCode?, errorTitle?}`: a status webhook
 *   (send them in any order, or twice);
 * - `POST /@meta/_deliver {phoneNumberId, raw, signature?}`: posts a body exactly as given (signed unless told);
 * - `POST /@meta/_templateStatus {phoneNumberId, name, language, event, reason?}`: the template of the
 *   number's business account takes `event` as its status (DELETED removes it) and Meta's
 *   `message_template_status_update` webhook is posted, signed with the number's app secret;
 * - `POST /@meta/_qualityUpdate {phoneNumberId, event, limit?, qualityRating?, time?}`: the number's
 *   quality or its portfolio's messaging limit changes (`limit` a tier such as TIER_2K) and Meta's
 *   `phone_number_quality_update` webhook is posted, signed with the number's app secret;
 * - `POST /@meta/_status` takes `pricing?: {category, type?}` (type `regular` is charged);
 * - `GET /@meta/_requests`: the Graph calls it answered (tokens masked).
 */

interface FakeNumber {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  wabaId: string;
  displayPhoneNumber: string;
  status: string;
  tokenExpired: boolean;
  sendErrors: { code: number; title: string; httpStatus?: number }[];
  /** the portfolio's messaging limit tier the number reports (`whatsapp_business_manager_messaging_limit`) */
  messagingLimit: string;
  /** GREEN, YELLOW, RED or UNKNOWN (`quality_rating`) */
  qualityRating: string;
}

type Json = Record<string, unknown>;

const MEDIA_URL_TTL_MS = 5 * 60_000;

/** A multipart body's fields and its one file (Meta's media upload). */
function readForm(headers: IncomingHttpHeaders, raw: Buffer) {
  return new Promise<{ fields: Record<string, string>; file?: { name: string; mimeType: string; bytes: Buffer } }>(
    (done, fail) => {
      const fields: Record<string, string> = {};
      let file: { name: string; mimeType: string; bytes: Buffer } | undefined;
      const parser = busboy({ headers });
      parser.on('field', (name, value) => {
        fields[name] = value;
      });
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          file = { name: info.filename ?? 'file', mimeType: info.mimeType, bytes: Buffer.concat(chunks) };
        });
      });
      parser.on('close', () => done({ fields, file }));
      parser.on('error', fail);
      parser.end(raw);
    },
  );
}

/** Why Meta would refuse a template send (its codes), or nothing. */
function templateRefusal(list: Json[], sent: Json | undefined): { code: number; title: string } | undefined {
  const language = (sent?.language as Json | undefined)?.code;
  const template = list.find((t) => t.name === sent?.name && t.language === language);
  if (!template) return { code: 132001, title: 'Template name does not exist in the translation' };
  if (template.status === 'PAUSED') return { code: 132015, title: 'Template is paused' };
  if (template.status === 'DISABLED') return { code: 132016, title: 'Template is disabled' };
  if (template.status !== 'APPROVED') return { code: 132001, title: 'Template is not approved' };
  const components = (template.components as Json[] | undefined) ?? [];
  const sentComponents = (sent?.components as Json[] | undefined) ?? [];
  for (const type of ['HEADER', 'BODY']) {
    const text = String(components.find((c) => c.type === type)?.text ?? '');
    const expected = new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1])).size;
    const given =
      (sentComponents.find((c) => c.type === type.toLowerCase())?.parameters as unknown[] | undefined) ?? [];
    if (given.length !== expected)
      return { code: 132000, title: 'Number of parameters does not match the expected number of params' };
  }
  return undefined;
}

/** Meta's webhook bodies escape every non-ASCII character (`\u00e9`, surrogate pairs for emoji). */
export const metaJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const metaSignature = (raw: Buffer, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

export function metaFake(base: string, webhookUrl: string) {
  const numbers = new Map<string, FakeNumber>();
  /** templates by business account, in Graph's shape */
  const templates = new Map<string, Json[]>();
  let templateIds = 900000000000000;
  const media = new Map<string, { phoneNumberId: string; bytes: Buffer; mimeType: string; urlExpiresAt: number }>();
  const requests: { method: string; path: string; token?: string; body?: unknown }[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const graphError = (res: ServerResponse, status: number, code: number, message: string, extra: Json = {}) =>
    send(res, status, {
      error: {
        message,
        type: code === 190 ? 'OAuthException' : 'GraphMethodException',
        code,
        ...extra,
        fbtrace_id: 'fake',
      },
    });
  const bearer = (req: IncomingMessage) => /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const authorized = (req: IncomingMessage, number: FakeNumber) =>
    !number.tokenExpired && bearer(req) === number.accessToken;
  // in Meta's shape: the chat, the direction and a device id (shared/wamid.ts); `deviceId` names it (tests)
  const newWamid = (chat: string, fromMe: boolean, deviceId?: string) =>
    wamidOf({ chat: chat.replace(/\D/g, ''), fromMe, id: deviceId ?? randomBytes(10).toString('hex').toUpperCase() });

  async function deliver(number: FakeNumber, raw: Buffer, opts: { signature?: string; contentType?: string }) {
    const signature =
      opts.signature === 'none'
        ? undefined
        : opts.signature === 'wrong'
          ? metaSignature(raw, `${number.appSecret}-not`)
          : metaSignature(raw, number.appSecret);
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': opts.contentType ?? 'application/json',
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      },
      body: new Uint8Array(raw),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  const envelope = (number: FakeNumber, value: Json, field = 'messages') => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
              ...value,
            },
            field,
          },
        ],
      },
    ],
  });

  function inboundMessage(number: FakeNumber, body: Json) {
    const message: Json = {
      from: String(body.from),
      id:
        typeof body.wamid === 'string'
          ? body.wamid
          : newWamid(
              String(body.from),
              Boolean(body.echo),
              typeof body.deviceId === 'string' ? body.deviceId : undefined,
            ),
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    if (typeof body.contextId === 'string') message.context = { from: number.displayPhoneNumber, id: body.contextId };
    const m = body.media as
      | { type: string; mimeType: string; data: string; caption?: string; filename?: string }
      | undefined;
    if (m) {
      const id = String(Date.now()) + randomBytes(4).readUInt32BE(0);
      const bytes = Buffer.from(m.data, 'base64');
      media.set(id, { phoneNumberId: number.phoneNumberId, bytes, mimeType: m.mimeType, urlExpiresAt: 0 });
      message.type = m.type;
      message[m.type] = {
        id,
        mime_type: m.mimeType,
        sha256: createHash('sha256').update(bytes).digest('base64'),
        ...(m.caption ? { caption: m.caption } : {}),
        ...(m.filename ? { filename: m.filename } : {}),
      };
    } else if (body.button) {
      message.type = 'interactive';
      message.interactive = { type: 'button_reply', button_reply: { id: 'b1', title: String(body.button) } };
    } else if (body.location) {
      message.type = 'location';
      message.location = body.location;
    } else if (body.reaction) {
      // an emoji on the message `reaction.messageId` (empty: taken back)
      const reaction = body.reaction as { messageId: string; emoji?: string };
      message.type = 'reaction';
      message.reaction = { message_id: reaction.messageId, ...(reaction.emoji ? { emoji: reaction.emoji } : {}) };
    } else {
      message.type = 'text';
      message.text = { body: String(body.text ?? '') };
    }
    return message;
  }

  async function hooks(path: string, req: IncomingMessage, res: ServerResponse, body: Json | undefined) {
    if (path === '/_requests') return send(res, 200, requests);
    if (req.method !== 'POST' || !body) return graphError(res, 404, 100, `no hook ${path}`);
    if (path === '/_script') {
      const id = String(body.phoneNumberId);
      const current = numbers.get(id);
      const next: FakeNumber = {
        phoneNumberId: id,
        accessToken: String(body.accessToken ?? current?.accessToken ?? ''),
        appSecret: String(body.appSecret ?? current?.appSecret ?? ''),
        wabaId: String(body.wabaId ?? current?.wabaId ?? '100000000000001'),
        displayPhoneNumber: String(body.displayPhoneNumber ?? current?.displayPhoneNumber ?? '+55 11 4000-0000'),
        status: String(body.status ?? current?.status ?? 'CONNECTED'),
        tokenExpired: Boolean(body.tokenExpired ?? current?.tokenExpired ?? false),
        sendErrors: (body.sendErrors as FakeNumber['sendErrors']) ?? current?.sendErrors ?? [],
        messagingLimit: String(body.messagingLimit ?? current?.messagingLimit ?? 'TIER_250'),
        qualityRating: String(body.qualityRating ?? current?.qualityRating ?? 'GREEN'),
      };
      numbers.set(id, next);
      if (Array.isArray(body.templates))
        templates.set(
          next.wabaId,
          (body.templates as Json[]).map((t) => ({ ...t, id: String(t.id ?? templateIds++) })),
        );
      return send(res, 200, { ok: true });
    }
    const number = numbers.get(String(body.phoneNumberId));
    if (!number) return graphError(res, 404, 100, 'unknown phone number (script it first)');
    const opts = {
      signature: body.signature as string | undefined,
      contentType: body.contentType as string | undefined,
    };
    if (path === '/_inbound') {
      const message = inboundMessage(number, body);
      // `echo`: the business wrote from the WhatsApp Business app (Coexistence) to `from`
      const payload = body.echo
        ? envelope(
            number,
            {
              message_echoes: [
                { ...message, from: number.displayPhoneNumber.replace(/\D/g, ''), to: String(body.from) },
              ],
            },
            'smb_message_echoes',
          )
        : envelope(number, {
            contacts: [{ profile: { name: String(body.name ?? '') }, wa_id: String(body.from) }],
            messages: [message],
          });
      const raw = Buffer.from(body.utf8 ? JSON.stringify(payload) : metaJson(payload), 'utf8');
      return send(res, 200, { wamid: message.id, payload, delivered: await deliver(number, raw, opts) });
    }
    if (path === '/_status') {
      const status: Json = {
        id: String(body.wamid),
        status: String(body.status),
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: String(body.recipient),
        // per-message pricing, as Meta adds it to each status of a message it prices
        ...(body.pricing
          ? {
              pricing: {
                pricing_model: 'PMP',
                category: String((body.pricing as Json).category),
                type: String((body.pricing as Json).type ?? 'regular'),
                billable: ((body.pricing as Json).type ?? 'regular') === 'regular',
              },
            }
          : {}),
        ...(body.errorCode !== undefined
          ? {
              errors: [
                {
                  code: Number(body.errorCode),
                  title: String(body.errorTitle ?? 'error'),
                  message: String(body.errorTitle ?? 'error'),
                },
              ],
            }
          : {}),
      };
      const raw = Buffer.from(metaJson(envelope(number, { statuses: [status] })), 'utf8');
      return send(res, 200, { delivered: await deliver(number, raw, opts) });
    }
    if (path === '/_templateStatus') {
      const list = templates.get(number.wabaId) ?? [];
      const template = list.find((t) => t.name === body.name && t.language === body.language);
      const event = String(body.event);
      if (template && event === 'DELETED') list.splice(list.indexOf(template), 1);
      else if (template) template.status = event;
      const raw = Buffer.from(
        metaJson({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: number.wabaId,
              time: Math.floor(Date.now() / 1000),
              changes: [
                {
                  value: {
                    event,
                    message_template_id: Number(template?.id ?? 1),
                    message_template_name: String(body.name),
                    message_template_language: String(body.language),
                    reason: body.reason === undefined ? 'NONE' : String(body.reason),
                  },
                  field: 'message_template_status_update',
                },
              ],
            },
          ],
        }),
        'utf8',
      );
      return send(res, 200, { delivered: await deliver(number, raw, opts) });
    }
    if (path === '/_qualityUpdate') {
      // the number's quality or its portfolio's messaging limit changed (Meta's phone_number_quality_update)
      if (body.limit !== undefined) number.messagingLimit = String(body.limit);
      if (body.qualityRating !== undefined) number.qualityRating = String(body.qualityRating);
      const raw = Buffer.from(
        metaJson({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: number.wabaId,
              time: Number(body.time ?? Math.floor(Date.now() / 1000)),
              changes: [
                {
                  value: {
                    display_phone_number: number.displayPhoneNumber.replace(/\D/g, ''),
                    event: String(body.event),
                    ...(body.limit !== undefined ? { max_daily_conversations_per_business: String(body.limit) } : {}),
                  },
                  field: 'phone_number_quality_update',
                },
              ],
            },
          ],
        }),
        'utf8',
      );
      return send(res, 200, { delivered: await deliver(number, raw, opts) });
    }
    if (path === '/_deliver')
      return send(res, 200, { delivered: await deliver(number, Buffer.from(String(body.raw), 'utf8'), opts) });
    return graphError(res, 404, 100, `no hook ${path}`);
  }

  return async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice('/@meta'.length);
    const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
    const body = raw.length && !multipart ? (JSON.parse(raw.toString()) as Json) : undefined;
    if (path.startsWith('/_') && !path.startsWith('/_media/')) return hooks(path, req, res, body);

    const token = bearer(req);
    requests.push({ method: req.method ?? 'GET', path, token: token ? `****${token.slice(-4)}` : undefined, body });

    const download = /^\/_media\/([^/]+)$/.exec(path);
    if (download && req.method === 'GET') {
      const item = media.get(decodeURIComponent(download[1]!));
      const number = item && numbers.get(item.phoneNumberId);
      if (!item || !number) return graphError(res, 404, 100, 'media not found');
      if (!authorized(req, number)) return graphError(res, 401, 190, 'Error validating access token');
      if (Date.now() > item.urlExpiresAt) return graphError(res, 404, 100, 'media URL expired');
      res.writeHead(200, { 'content-type': item.mimeType, 'content-length': String(item.bytes.length) });
      return void res.end(item.bytes);
    }

    const listing = /^\/v[\d.]+\/([^/]+)\/message_templates$/.exec(path);
    if (listing && req.method === 'GET') {
      const wabaId = decodeURIComponent(listing[1]!);
      const owner = [...numbers.values()].find((n) => n.wabaId === wabaId);
      if (!owner) return graphError(res, 400, 100, 'Unsupported get request', { error_subcode: 33 });
      if (!authorized(req, owner)) return graphError(res, 401, 190, 'Error validating access token');
      const all = templates.get(wabaId) ?? [];
      const limit = Math.max(1, Number(url.searchParams.get('limit')) || 25);
      const start = Number(url.searchParams.get('after') ?? 0) || 0;
      const page = all.slice(start, start + limit);
      const more = start + limit < all.length;
      return send(res, 200, {
        data: page,
        paging: {
          cursors: { before: String(start), after: String(start + page.length) },
          ...(more ? { next: `${base}/@meta${path}?after=${start + page.length}` } : {}),
        },
      });
    }

    const upload = /^\/v[\d.]+\/([^/]+)\/media$/.exec(path);
    if (upload && req.method === 'POST') {
      const number = numbers.get(decodeURIComponent(upload[1]!));
      if (!number) return graphError(res, 400, 100, 'Unsupported post request', { error_subcode: 33 });
      if (!authorized(req, number)) return graphError(res, 401, 190, 'Error validating access token');
      const form = multipart ? await readForm(req.headers, raw) : undefined;
      if (form?.fields.messaging_product !== 'whatsapp' || !form.file)
        return graphError(res, 400, 100, 'Invalid parameter');
      const id = `${Date.now()}${randomBytes(4).readUInt32BE(0)}`;
      // what Meta keeps of an upload: the bytes, retrievable by the media id as a customer's are
      media.set(id, {
        phoneNumberId: number.phoneNumberId,
        bytes: form.file.bytes,
        mimeType: form.fields.type ?? form.file.mimeType,
        urlExpiresAt: 0,
      });
      requests[requests.length - 1]!.body = {
        ...form.fields,
        file: { name: form.file.name, size: form.file.bytes.length },
      };
      return send(res, 200, { id });
    }

    const graph = /^\/v[\d.]+\/([^/]+)(\/messages)?$/.exec(path);
    if (!graph) return graphError(res, 404, 100, `no route ${req.method} ${path}`);
    const id = decodeURIComponent(graph[1]!);
    const number = numbers.get(id);
    if (req.method === 'GET' && !graph[2]) {
      if (number) {
        if (!authorized(req, number)) return graphError(res, 401, 190, 'Error validating access token');
        return send(res, 200, {
          id,
          display_phone_number: number.displayPhoneNumber,
          verified_name: 'Fake Business',
          status: number.status,
          quality_rating: number.qualityRating,
          code_verification_status: 'VERIFIED',
          whatsapp_business_manager_messaging_limit: number.messagingLimit,
        });
      }
      const item = media.get(id);
      const owner = item && numbers.get(item.phoneNumberId);
      if (!item || !owner) return graphError(res, 400, 100, 'Unsupported get request', { error_subcode: 33 });
      if (!authorized(req, owner)) return graphError(res, 401, 190, 'Error validating access token');
      item.urlExpiresAt = Date.now() + MEDIA_URL_TTL_MS;
      return send(res, 200, {
        messaging_product: 'whatsapp',
        id,
        url: `${base}/@meta/_media/${encodeURIComponent(id)}`,
        mime_type: item.mimeType,
        sha256: createHash('sha256').update(item.bytes).digest('hex'),
        file_size: item.bytes.length,
      });
    }
    if (req.method === 'POST' && graph[2]) {
      if (!number) return graphError(res, 400, 100, 'Unsupported post request', { error_subcode: 33 });
      if (!authorized(req, number)) return graphError(res, 401, 190, 'Error validating access token');
      const scripted = number.sendErrors.shift();
      if (scripted)
        return graphError(res, scripted.httpStatus ?? 400, scripted.code, scripted.title, {
          error_data: { messaging_product: 'whatsapp', details: scripted.title },
        });
      if (body?.messaging_product !== 'whatsapp' || !body.to || !body.type)
        return graphError(res, 400, 100, 'Invalid parameter');
      const mediaRef = (body[String(body.type)] as Json | undefined)?.id;
      if (
        ['image', 'video', 'audio', 'document', 'sticker'].includes(String(body.type)) &&
        !media.has(String(mediaRef))
      )
        return graphError(res, 400, 131053, 'Media upload error', {
          error_data: { messaging_product: 'whatsapp', details: 'unknown media id' },
        });
      if (body.type === 'template') {
        const refused = templateRefusal(templates.get(number.wabaId) ?? [], body.template as Json | undefined);
        if (refused)
          return graphError(res, 400, refused.code, refused.title, {
            error_data: { messaging_product: 'whatsapp', details: refused.title },
          });
      }
      return send(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: String(body.to), wa_id: String(body.to).replace(/\D/g, '') }],
        messages: [{ id: newWamid(String(body.to), true) }],
      });
    }
    return graphError(res, 404, 100, `no route ${req.method} ${path}`);
  };
}
