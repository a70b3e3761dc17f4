import type { IntegrationType } from '#shared/schemas/integrations';
import { getItem, stripKeys, type Item } from '../db';
import { pad } from '../keys';

/**
 * A queue integration: pk `C#<cid>`, sk `QINT#<pad(id)>` (`nameLower` for the search filter). A
 * dialogflow service account is stored sealed (`jsonContentSealed`, secrets.ts); `webhookSecret`
 * signs the n8n/webhook calls.
 */
export interface StoredIntegration {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContentSealed: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  webhookSecret: string;
  createdAt: string;
  updatedAt: string;
}

export const integrationKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `QINT#${pad(id)}` });
export const INTEGRATION_PREFIX = 'QINT#';
export const integrationItem = (i: StoredIntegration): Item => ({
  ...integrationKeys(i.companyId, i.id),
  ...i,
  nameLower: i.name.toLowerCase(),
});
export const toStoredIntegration = (item: Item): StoredIntegration => {
  const { nameLower: _n, ...rest } = stripKeys(item) as Item;
  return rest as StoredIntegration;
};

export async function getStoredIntegration(companyId: number, id: number): Promise<StoredIntegration | undefined> {
  const item = await getItem(integrationKeys(companyId, id));
  return item ? toStoredIntegration(item) : undefined;
}

/**
 * Where a ticket stands with its prompt or integration: pk `C#<cid>#ASSIST#<pad(ticketId)>`, sk
 * `ASSIST`. `human` once the bot handed the ticket to people (transfer, finish keyword, failure);
 * the typebot session and its last turn for the expiry.
 */
export interface AssistState {
  human: boolean;
  typebot?: { sessionId: string; lastAt: number; choices: string[] };
}
export const assistKeys = (companyId: number, ticketId: number) => ({
  pk: `C#${companyId}#ASSIST#${pad(ticketId)}`,
  sk: 'ASSIST',
});
