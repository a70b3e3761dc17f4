import type { Item } from '../db';
import { publish } from '../realtime';
import { toCampaign } from './repo';

/** `campaign` event (management.md 4): the list and the report apply it live. */
export async function announceCampaign(item: Item, action: 'create' | 'update') {
  const record = toCampaign(item);
  await publish(record.companyId, 'campaign', { action, record });
}
