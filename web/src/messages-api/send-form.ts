import { ExternalSendBody } from '#shared/schemas/whatsapp';
import { fieldErrors } from '../lib/zod-errors';

export interface SendForm {
  token: string;
  number: string;
  body: string;
  file?: File | null;
  /** the chosen connection's masked token (`********abcd`), when one is chosen */
  masked?: string;
}

export interface SendAnswer {
  status: number;
  body: unknown;
}

/**
 * The test forms' checks (management.md 5): token, number and body are required (number and body
 * by the server's own schema); the media form also needs a file. Answers field -> message key.
 */
export function validateSend(form: SendForm, withMedia: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.token.trim()) errors.token = 'required';
  else if (!tokenFits(form.masked, form.token)) errors.token = 'tokenMismatch';
  const parsed = ExternalSendBody.safeParse({ number: form.number, body: form.body });
  if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
  // an empty number is missing, not malformed
  if (!form.number.trim()) errors.number = 'required';
  if (withMedia && !form.file) errors.file = 'required';
  return errors;
}

/** A typed token fits the chosen connection when it ends with the characters its masked form shows. */
export function tokenFits(masked: string | undefined, token: string): boolean {
  const hint = (masked ?? '').replace(/^\*+/, '');
  return !hint || token.trim().endsWith(hint);
}

/** The endpoint as an outside caller reaches it: the API base of this app, made absolute. */
export function sendEndpoint(apiUrl: string, origin: string): string {
  return `${new URL(apiUrl.replace(/\/$/, ''), origin).href}/messages/send`;
}

export const curlText = (endpoint: string) =>
  [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer <token>' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"number": "5511999999999", "body": "Hello!"}'`,
  ].join('\n');

export const curlMedia = (endpoint: string) =>
  [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer <token>' \\`,
    `  -F 'number=5511999999999' \\`,
    `  -F 'body=Your invoice' \\`,
    `  -F 'medias=@invoice.pdf'`,
  ].join('\n');

/**
 * Calls the endpoint as an outside client would: the connection token as Bearer, no user session
 * (so a refused token never logs the user out). JSON for text, multipart for media.
 */
export async function sendTest(
  endpoint: string,
  form: SendForm,
  withMedia: boolean,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): Promise<SendAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${form.token.trim()}`, Accept: 'application/json' };
  let body: BodyInit;
  if (withMedia && form.file) {
    const data = new FormData();
    data.set('number', form.number);
    data.set('body', form.body);
    data.append('medias', form.file, form.file.name);
    body = data;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ number: form.number, body: form.body });
  }
  const res = await fetchImpl(endpoint, { method: 'POST', headers, body, credentials: 'omit' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // a non-JSON answer (a proxy's error page) is shown as text
  }
  return { status: res.status, body: parsed };
}

/** The error code of an answer, if it carries one (`{ error: 'ERR_*' }`). */
export const answerCode = (answer: SendAnswer): string | undefined => {
  const b = answer.body as { error?: unknown } | null;
  return b && typeof b === 'object' && typeof b.error === 'string' ? b.error : undefined;
};

/** The error codes of the endpoint, with their HTTP status, as documented on the page. */
export const SEND_ERRORS = [
  { status: 400, code: 'ERR_VALIDATION' },
  { status: 400, code: 'ERR_WAPP_INVALID_CONTACT' },
  { status: 400, code: 'ERR_WAPP_NOT_INITIALIZED' },
  { status: 401, code: 'ERR_SESSION_EXPIRED' },
  { status: 401, code: 'ERR_COMPANY_EXPIRED' },
  { status: 403, code: 'ERR_PLAN_FEATURE_DISABLED' },
  { status: 413, code: 'ERR_PAYLOAD_TOO_LARGE' },
  { status: 415, code: 'ERR_UPLOAD_TYPE_NOT_ALLOWED' },
] as const;
