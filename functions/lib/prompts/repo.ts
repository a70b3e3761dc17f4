import { getItem, queryAll, stripKeys, type Item } from '../db';
import { pad } from '../keys';

/**
 * An AI prompt: pk `C#<cid>`, sk `PROMPT#<pad(id)>`. The apiKey is stored sealed (`apiKeySealed`,
 * see secrets.ts sealSecret) with its last 4 characters for the mask; it is never stored in clear.
 */
export interface StoredPrompt {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  queueId: number;
  maxMessages: number;
  /** issue 39; prompts stored before it read as false */
  useKnowledgeBase: boolean;
  apiKeySealed: string;
  apiKeyLast4: string;
  createdAt: string;
  updatedAt: string;
}

export const promptKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `PROMPT#${pad(id)}` });
export const promptItem = (p: StoredPrompt): Item => ({ ...promptKeys(p.companyId, p.id), ...p });
const toStored = (item: Item): StoredPrompt => {
  const stored = stripKeys(item) as StoredPrompt;
  return { ...stored, useKnowledgeBase: Boolean(stored.useKnowledgeBase) };
};

export async function getStoredPrompt(companyId: number, id: number): Promise<StoredPrompt | undefined> {
  const item = await getItem(promptKeys(companyId, id));
  return item ? toStored(item) : undefined;
}

/** Every prompt of the company: one Query on the small `PROMPT#` range. */
export async function listStoredPrompts(companyId: number): Promise<StoredPrompt[]> {
  return (await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'PROMPT#' } })).map(toStored);
}
