import { createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '#shared/schemas/integrations';
import { callProvider, postJson } from './call';

/** `sha256=<hex>` of `<timestamp>.<body>` under the integration's secret (receivers recompute it). */
export function webhookSignature(secret: string, timestamp: string, body: string) {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver may answer (all optional): texts to send the customer, or a hand-over to humans. */
export interface WebhookAnswer {
  replies: string[];
  transfer: boolean;
}

/**
 * n8n / webhook adapter: POSTs the event JSON signed with the integration's secret. A 2xx answer
 * may carry `{ "reply": "..." }`, `{ "replies": ["..."] }` and `{ "transfer": true }`; replies may
 * also come later through the external messages API.
 */
export async function postWebhook(url: string, secret: string, event: unknown): Promise<WebhookAnswer> {
  const body = JSON.stringify(event);
  const out = await callProvider('webhook', (signal) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return postJson(url, body, signal, {
      [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
    });
  });
  const answer = (out && typeof out === 'object' ? out : {}) as {
    reply?: unknown;
    replies?: unknown;
    transfer?: unknown;
  };
  const replies = [
    ...(typeof answer.reply === 'string' ? [answer.reply] : []),
    ...(Array.isArray(answer.replies) ? answer.replies.filter((r): r is string => typeof r === 'string') : []),
  ].filter((r) => r.trim());
  return { replies, transfer: answer.transfer === true };
}
