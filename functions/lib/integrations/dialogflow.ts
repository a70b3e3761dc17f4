import { createSign } from 'node:crypto';
import type { ServiceAccount } from '#shared/schemas/integrations';
import { config } from '../config';
import { ProviderError, callProvider } from './call';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A Google OAuth assertion for the service account, signed RS256 with its private key. */
export function serviceAccountAssertion(
  account: ServiceAccount,
  audience: string,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) };
  const claims = { iss: account.client_email, scope: SCOPE, aud: audience, iat: nowSeconds, exp: nowSeconds + 3600 };
  const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key);
  } catch {
    throw new ProviderError('the service account private key is not a valid PEM key', false);
  }
  return `${unsigned}.${b64url(signature)}`;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

/** An access token for the account, exchanged at DIALOGFLOW_TOKEN_URL and reused until a minute before expiry. */
async function accessToken(account: ServiceAccount): Promise<string> {
  const { dialogflowTokenUrl } = config();
  const cacheKey = `${account.client_email}#${account.private_key_id ?? ''}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  const out = await callProvider('dialogflow-token', async (signal) => {
    const res = await fetch(dialogflowTokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: serviceAccountAssertion(account, dialogflowTokenUrl),
      }),
      signal,
    });
    if (!res.ok)
      throw new ProviderError(`token HTTP ${res.status}`, res.status >= 500 || res.status === 429, res.status);
    return (await res.json()) as { access_token?: string; expires_in?: number };
  });
  if (!out.access_token) throw new ProviderError('no access token', false);
  tokens.set(cacheKey, { token: out.access_token, expiresAt: Date.now() + (out.expires_in ?? 3600) * 1000 });
  return out.access_token;
}

export interface DetectIntentAnswer {
  answer: string;
  intent: string | null;
  /** the agent ended the conversation: humans take over */
  endInteraction: boolean;
}

/** Dialogflow ES `detectIntent` on the project's agent for one session (one ticket). */
export async function detectIntent(
  account: ServiceAccount,
  projectId: string,
  sessionId: string,
  text: string,
  languageCode: string,
): Promise<DetectIntentAnswer> {
  const token = await accessToken(account);
  const url = `${config().dialogflowApiUrl.replace(/\/+$/, '')}/v2/projects/${encodeURIComponent(projectId)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
  const out = await callProvider('dialogflow', async (signal) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ queryInput: { text: { text, languageCode } } }),
      signal,
    });
    if (!res.ok) throw new ProviderError(`HTTP ${res.status}`, res.status >= 500 || res.status === 429, res.status);
    return (await res.json()) as {
      queryResult?: {
        fulfillmentText?: string;
        fulfillmentMessages?: { text?: { text?: string[] } }[];
        intent?: { displayName?: string; endInteraction?: boolean };
      };
    };
  });
  const result = out.queryResult ?? {};
  const answer =
    result.fulfillmentText || (result.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).join('\n') || '';
  return { answer, intent: result.intent?.displayName ?? null, endInteraction: Boolean(result.intent?.endInteraction) };
}
