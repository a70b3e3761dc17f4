import type { Campaign, Shipping } from '#shared/schemas/campaigns';
import { getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * Campaigns and their shipping.
 * - campaign: pk `C#<cid>`, sk `CAMPAIGN#<pad(id)>`, with the run's state: `step` (the send job the
 *   campaign waits for: a job of another step is stale and dropped), `cursor` (the last shipping key
 *   handed to a send), `planPage` / `plannedAt` (planning progress), `sinceLonger` (sends since the
 *   last greaterInterval pause). While PROGRAMADA or EM_ANDAMENTO it sits on the platform-wide due
 *   index gsi4 `CAMPAIGN_DUE` / `<when>#<pad(cid)>#<pad(id)>`: the start time, then a watch time
 *   after the next expected step (a lost job is found there and the chain restarted);
 * - shipping: pk `C#<cid>#CAMPSHIP#<campaignId>`, sk `S#<number>`: one per WhatsApp number, written
 *   by the planner, moved pending -> sending -> sent | failed by the sender under conditions, with
 *   the message id so acks fill deliveredAt / readAt. A contact of the audience without a number
 *   (known only by its `@lid` id) is written `skipped` with error `noNumber` under sk
 *   `S#contact-<contactId>` (contactShippingKeys), never picked by the sender.
 */
export const campaignKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `CAMPAIGN#${pad(id)}` });
/** The key condition of a company's campaigns (a Query). */
export const companyCampaigns = (companyId: number) => ({ pk: `C#${companyId}`, sk: { beginsWith: 'CAMPAIGN#' } });
export const shippingPk = (companyId: number, campaignId: number) => `C#${companyId}#CAMPSHIP#${campaignId}`;
export const shippingKeys = (companyId: number, campaignId: number, number: string) => ({
  pk: shippingPk(companyId, campaignId),
  sk: `S#${number}`,
});
/** The shipping item of a contact without a number (left out, see above). */
export const contactShippingKeys = (companyId: number, campaignId: number, contactId: number) => ({
  pk: shippingPk(companyId, campaignId),
  sk: `S#contact-${contactId}`,
});
export const CAMPAIGN_DUE_PK = 'CAMPAIGN_DUE';
export const campaignDueIndex = (companyId: number, id: number, when: string) => ({
  gsi4pk: CAMPAIGN_DUE_PK,
  gsi4sk: `${when}#${pad(companyId)}#${pad(id)}`,
});

export type StoredCampaign = Campaign & {
  step?: number;
  cursor?: string;
  planPage?: number;
  plannedAt?: string;
  sinceLonger?: number;
  mediaMimetype?: string | null;
  nameLower?: string;
  gsi4sk?: string;
};

export const campaignItem = (c: StoredCampaign): Item => ({
  ...campaignKeys(c.companyId, c.id),
  ...c,
  nameLower: c.name.toLowerCase(),
});

export const toStoredCampaign = (item: Item) => {
  const stored = stripKeys(item) as StoredCampaign;
  return { ...stored, ...(item.gsi4sk ? { gsi4sk: item.gsi4sk as string } : {}) };
};

export function toCampaign(item: Item): Campaign {
  const {
    step: _s,
    cursor: _c,
    planPage: _p,
    plannedAt: _pa,
    sinceLonger: _l,
    mediaMimetype: _m,
    nameLower: _n,
    gsi4sk: _g,
    ...rest
  } = toStoredCampaign(item);
  return rest;
}

export async function getStoredCampaign(companyId: number, id: number, consistent = false) {
  const item = await getItem(campaignKeys(companyId, id), { consistent });
  return item ? toStoredCampaign(item) : undefined;
}

export async function requireStoredCampaign(companyId: number, id: number) {
  const c = await getStoredCampaign(companyId, id);
  if (!c) throw new AppError('ERR_NOT_FOUND');
  return c;
}

export type StoredShipping = Shipping & {
  companyId: number;
  campaignId: number;
  contactListItemId?: number;
  contactId?: number;
  attempts?: number;
  sendingAt?: string;
};
export const toShipping = (item: Item): Shipping => {
  const {
    companyId: _c,
    campaignId: _i,
    contactListItemId: _l,
    contactId: _ct,
    attempts: _a,
    sendingAt: _s,
    ...rest
  } = stripKeys(item) as StoredShipping;
  return rest;
};
