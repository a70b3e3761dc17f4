import { deleteItem, getItem, putItem } from '../db';
import { pad } from '../keys';
import type { BotState } from './engine';

/**
 * Where the chatbot is in a ticket's conversation (menu, option node, menus spent) and whether a
 * rating is awaited: pk `C#<cid>`, sk `BOT#<pad(ticketId)>`. Kept apart from the ticket item so the
 * bot never races the attendants' writes on the ticket.
 */
export const botStateKeys = (companyId: number, ticketId: number) => ({
  pk: `C#${companyId}`,
  sk: `BOT#${pad(ticketId)}`,
});

export interface StoredBotState extends BotState {
  /** the close that asked for a rating: who attended, to credit the answer */
  awaitingRating?: { userId: number | null; askedAt: number };
}

export async function getBotState(companyId: number, ticketId: number): Promise<StoredBotState | undefined> {
  const item = await getItem<StoredBotState & { pk: string; sk: string }>(botStateKeys(companyId, ticketId));
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, ...state } = item;
  return state;
}

export async function saveBotState(companyId: number, ticketId: number, state: StoredBotState) {
  await putItem({ ...botStateKeys(companyId, ticketId), ...state });
}

export async function clearBotState(companyId: number, ticketId: number) {
  await deleteItem(botStateKeys(companyId, ticketId));
}
