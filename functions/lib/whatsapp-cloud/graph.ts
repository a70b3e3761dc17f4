import type { z, ZodType } from 'zod';
import {
  CloudMediaInfo,
  CloudPhoneNumber,
  CloudSendAnswer,
  CloudTemplatesPage,
  CloudUploadAnswer,
  GraphErrorBody,
  type CloudTemplate,
} from '#shared/schemas/whatsapp-cloud';
import type { SessionCommand } from '#shared/whatsapp-protocol';
import type { CloudMediaType } from '#shared/cloud-media';
import { config } from '../config';

/**
 * The Graph API port: the few WhatsApp Cloud API endpoints the product calls, typed with the
 * shared zod schemas. Its base URL (with the API version) is WHATSAPP_GRAPH_URL: Meta's on AWS, the
 * local fake (infra/local/meta-fake.ts) in `npm start` and the tests.
 */

const TIMEOUT_MS = 10_000;
const PHONE_FIELDS =
  'id,display_phone_number,verified_name,status,quality_rating,code_verification_status,whatsapp_business_manager_messaging_limit';
const TEMPLATE_FIELDS = 'id,name,language,status,category,parameter_format,rejected_reason,components';
/** a WhatsApp Business Account holds at most a few thousand templates: past this, the list is cut */
const MAX_TEMPLATE_PAGES = 50;

/**
 * A template message to send: its variables' values in the template's order, by name; named
 * parameters (`{{first_name}}`) travel with their names, positional ones by order.
 */
export type TemplateMessage = NonNullable<Extract<SessionCommand, { type: 'send' }>['template']>;

/** A refusal of the Graph API (`code` is Meta's: 190 token, 131047 outside the window ...), or no answer (`code` 0). */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly title?: string,
    /** the request may have reached Meta: its outcome is unknown (timeout, connection lost, 5xx) */
    readonly outcomeUnknown = false,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export interface GraphClient {
  phoneNumber(phoneNumberId: string): Promise<z.infer<typeof CloudPhoneNumber>>;
  sendText(phoneNumberId: string, to: string, body: string, quotedWamid?: string): Promise<string>;
  sendTemplate(phoneNumberId: string, to: string, template: TemplateMessage): Promise<string>;
  /** an emoji on the message `wamid` (empty: the reaction taken back) */
  sendReaction(phoneNumberId: string, to: string, wamid: string, emoji: string): Promise<string>;
  /** a media message of a file uploaded first (`uploadMedia`) */
  sendMedia(phoneNumberId: string, to: string, media: CloudOutboundMedia, quotedWamid?: string): Promise<string>;
  /** `POST /{phone-number-id}/media`: the file (a Blob, read as it is sent) to Meta, for a media id that lasts 30 days */
  uploadMedia(phoneNumberId: string, file: Blob, mimetype: string, fileName: string): Promise<string>;
  /** every template of a WhatsApp Business Account, page after page */
  templates(wabaId: string): Promise<CloudTemplate[]>;
  mediaInfo(mediaId: string): Promise<z.infer<typeof CloudMediaInfo>>;
  download(url: string): Promise<Buffer>;
}

export function graphClient(accessToken: string, baseUrl = config().whatsappGraphUrl): GraphClient {
  const base = baseUrl.replace(/\/+$/, '');
  async function call<S extends ZodType>(schema: S, url: string, init: RequestInit = {}): Promise<z.infer<S>> {
    const res = await request(url, init);
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok) throw refusal(res.status, body);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new GraphError(res.status, 0, 'unexpected Graph API answer', undefined, true);
    return parsed.data;
  }
  async function request(url: string, init: RequestInit) {
    try {
      return await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${accessToken}`, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new GraphError(0, 0, `Graph API unreachable: ${(err as Error).message}`, undefined, true);
    }
  }
  async function postMessage(id: string, message: Record<string, unknown>) {
    const answer = await call(CloudSendAnswer, `${base}/${encodeURIComponent(id)}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...message }),
    });
    return answer.messages[0]!.id;
  }
  return {
    phoneNumber: (id) => call(CloudPhoneNumber, `${base}/${encodeURIComponent(id)}?fields=${PHONE_FIELDS}`),
    sendText: (id, to, body, quotedWamid) =>
      postMessage(id, {
        to,
        type: 'text',
        text: { body, preview_url: false },
        ...(quotedWamid ? { context: { message_id: quotedWamid } } : {}),
      }),
    sendTemplate: (id, to, template) => postMessage(id, { to, type: 'template', template: templateBody(template) }),
    sendReaction: (id, to, wamid, emoji) =>
      postMessage(id, { to, type: 'reaction', reaction: { message_id: wamid, emoji } }),
    sendMedia: (id, to, media, quotedWamid) =>
      postMessage(id, {
        to,
        type: media.type,
        [media.type]: {
          id: media.id,
          ...(media.caption ? { caption: media.caption } : {}),
          ...(media.filename ? { filename: media.filename } : {}),
        },
        ...(quotedWamid ? { context: { message_id: quotedWamid } } : {}),
      }),
    async uploadMedia(id, file, mimetype, fileName) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', mimetype);
      form.set('file', file, fileName);
      const answer = await call(CloudUploadAnswer, `${base}/${encodeURIComponent(id)}/media`, {
        method: 'POST',
        body: form,
      });
      return answer.id;
    },
    async templates(wabaId) {
      const all: CloudTemplate[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
        const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: '100', ...(after ? { after } : {}) });
        const answer = await call(
          CloudTemplatesPage,
          `${base}/${encodeURIComponent(wabaId)}/message_templates?${query}`,
        );
        all.push(...answer.data);
        after = answer.paging?.cursors?.after;
        // the cursor is followed, never the `next` URL: the token goes only to the configured base
        if (!answer.paging?.next || !after) break;
      }
      return all;
    },
    mediaInfo: (mediaId) => call(CloudMediaInfo, `${base}/${encodeURIComponent(mediaId)}`),
    async download(url) {
      const res = await request(url, {});
      if (!res.ok) throw refusal(res.status, await res.json().catch(() => undefined));
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

/** Meta's `template` object: the header's and the body's text parameters, named when the template is. */
/** A media message: the uploaded file's id, with a caption (not for audio and stickers) and a document's file name. */
export interface CloudOutboundMedia {
  type: CloudMediaType;
  id: string;
  caption?: string;
  filename?: string;
}

function templateBody(t: TemplateMessage) {
  const parameters = (values: TemplateMessage['body']) =>
    values.map((v) => ({ type: 'text', text: v.value, ...(t.named ? { parameter_name: v.name } : {}) }));
  const components = [
    ...(t.header.length ? [{ type: 'header', parameters: parameters(t.header) }] : []),
    ...(t.body.length ? [{ type: 'body', parameters: parameters(t.body) }] : []),
  ];
  return { name: t.name, language: { code: t.language }, ...(components.length ? { components } : {}) };
}

function refusal(status: number, body: unknown): GraphError {
  const parsed = GraphErrorBody.safeParse(body);
  const code = parsed.success ? parsed.data.error.code : 0;
  const message = parsed.success ? (parsed.data.error.message ?? `Graph API ${status}`) : `Graph API ${status}`;
  return new GraphError(
    status,
    code,
    message,
    parsed.success ? parsed.data.error.error_data?.details : undefined,
    status >= 500,
  );
}

/** Meta's codes that mean the token no longer works (expired, revoked, wrong app). */
export const isTokenError = (err: GraphError) => err.code === 190 || err.status === 401;

/**
 * Meta's rate limits (its error codes reference): the number's throughput (130429), the pair rate to
 * one customer (131056), the business account's (80007) and the app's (4) request limits. Meta took
 * nothing: the same message may go again a little later.
 */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([130429, 131056, 80007, 4]);
export const isRateLimited = (err: GraphError) => RATE_LIMIT_CODES.has(err.code) || err.status === 429;
/** One of Meta's rate-limit codes (also in a `failed` status, when Meta refused a send it had taken). */
export const isRateLimitCode = (code: number | undefined) => code !== undefined && RATE_LIMIT_CODES.has(code);
