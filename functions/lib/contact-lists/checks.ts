import type { ContactListItem } from '#shared/schemas/contact-lists';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { CHECK_BATCH, type InboundEvent } from '#shared/whatsapp-protocol';
import { isCloudProvider } from '#shared/constants';
import { getItem, query, queryAll, updateItem } from '../db';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { listWhatsapps } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { enqueueCampaignJob, type CampaignJob } from '../campaigns/jobs';
import {
  checksLeftOf,
  checkBudgetOf,
  currentCheckStop,
  dailyCheckBudgetOf,
  stopChecksToday,
  takeChecks,
  type CheckStop,
} from '../campaigns/check-budget';
import { cachedNumberChecks, cacheNumberCheck } from '../whatsapp/numbers';
import {
  companyLists,
  ITEM_PREFIX,
  itemKeys,
  itemsPk,
  listKeys,
  requireContactListItem,
  toContactList,
  toContactListItem,
} from './repo';

/**
 * The WhatsApp validity of contact list items, checked in the background by the session runner.
 * A write of items enqueues one `checkItems` job per ITEMS_PER_JOB items; the job asks the runners of
 * the connections that can check (`checkingConnections`: connected WhatsApp Web ones, the default
 * first, a connection WhatsApp restricts or whose budget is spent passing its share to the next)
 * about the numbers in `checkNumbers` commands of
 * CHECK_BATCH numbers each (one WhatsApp query each, paced by the runner, in a command lane of their
 * own so they never hold a send back), each number with a reply id naming its item
 * (`cli:<listId>:<itemId>:<number>`); each answer updates `isWhatsappValid` and publishes
 * `contactListItem`. With no connected connection the items stay unchecked (null) and
 * the list is noted on the company's deferred-check item (pk `C#<cid>`, sk `CLICHECK_DEFERRED`,
 * a set of list ids); the next connection of the company that comes up (`resumeNumberChecks`)
 * checks every item those lists still hold unchecked, a page per job.
 *
 * Each check not answered from the day's cache takes one from the connection's daily check budget
 * (campaigns/check-budget.ts). What no connection's budget covers, or every check while WhatsApp
 * restricts all of them, stays unchecked: the list notes why and when checks go on
 * (`checksWaitReason`, `checksResumeAt`: the soonest of the connections' stops) and one `checkItems`
 * job of the list's unchecked items waits until then (`notBefore`). A reach-out lock lifted before
 * its end lets those lists go on at once (`resumeLockedChecks`).
 */
const ITEMS_PER_JOB = 1000;
const REPLY_PREFIX = 'cli:';
const deferredKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'CLICHECK_DEFERRED' });

type CheckJob = Omit<Extract<CampaignJob, { kind: 'checkItems' }>, 'kind'>;

export async function requestNumberChecks(companyId: number, items: Pick<ContactListItem, 'id' | 'contactListId'>[]) {
  const byList = new Map<number, number[]>();
  for (const i of items) byList.set(i.contactListId, [...(byList.get(i.contactListId) ?? []), i.id]);
  for (const [contactListId, ids] of byList)
    for (let i = 0; i < ids.length; i += ITEMS_PER_JOB)
      await enqueueCampaignJob({
        kind: 'checkItems',
        companyId,
        contactListId,
        itemIds: ids.slice(i, i + ITEMS_PER_JOB),
      });
}

/** A connection of the company came up: lists whose checks waited for one are checked now. */
export async function resumeNumberChecks(companyId: number) {
  const deferred = await getItem<{ listIds?: Set<string> }>(deferredKeys(companyId), { consistent: true });
  const listIds = [...(deferred?.listIds ?? [])];
  if (!listIds.length) return;
  await updateItem(deferredKeys(companyId), { deleteFromSet: { listIds: new Set(listIds) } });
  for (const id of listIds)
    await enqueueCampaignJob({
      kind: 'checkItems',
      companyId,
      contactListId: Number(id),
      itemIds: [],
      unchecked: true,
    });
}

/** One page of a list's items still unchecked (null), and the job for the next page. */
async function uncheckedPage(job: CheckJob) {
  const out = await query({
    pk: itemsPk(job.companyId, job.contactListId),
    sk: { beginsWith: ITEM_PREFIX },
    filter: 'attribute_type(#valid, :null)',
    filterNames: { '#valid': 'isWhatsappValid' },
    filterValues: { ':null': 'NULL' },
    limit: ITEMS_PER_JOB,
    startKey: job.startKey,
  });
  if (out.lastKey) await enqueueCampaignJob({ ...job, kind: 'checkItems', startKey: out.lastKey });
  return out.items.map(toContactListItem);
}

/**
 * The connections that may check the company's list numbers, in the order they are asked: connected
 * WhatsApp Web ones (a Cloud API number cannot check), the default first.
 */
async function checkingConnections(companyId: number) {
  return (await listWhatsapps(companyId))
    .filter((w) => w.status === 'CONNECTED' && !isCloudProvider(w.provider))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
}

/** The soonest end of the connections' stops (the list waits for the first of them to check again). */
const soonest = (stops: (CheckStop | undefined)[]) =>
  stops.filter((s) => s !== undefined).sort((a, b) => a.until - b.until)[0];

/**
 * The connection that checks now: the first one not stopped; all stopped, the first, with the
 * soonest stop's end.
 */
async function checkingConnection(companyId: number, candidates: Whatsapp[]) {
  const stops = await Promise.all(candidates.map((w) => currentCheckStop(companyId, w)));
  const open = stops.findIndex((s) => !s);
  return open >= 0 ? { whatsapp: candidates[open]! } : { whatsapp: candidates[0]!, stop: soonest(stops) };
}

/**
 * The `checkItems` job: numbers answered in the day's cache are applied at once; the others take
 * checks from the connection's budget and go in a `checkNumbers` command per CHECK_BATCH, to a
 * connected connection (none: the list waits on the deferred-check item for the next connection
 * that comes up). What the budget refuses waits (`waitForChecks`).
 */
export async function checkItems(job: CheckJob) {
  if (job.notBefore && job.notBefore > Date.now())
    return enqueueCampaignJob({ ...job, kind: 'checkItems' }, job.notBefore - Date.now());
  const candidates = await checkingConnections(job.companyId);
  if (!candidates.length) {
    await updateItem(deferredKeys(job.companyId), { add: { listIds: new Set([String(job.contactListId)]) } });
    return;
  }
  await clearChecksWait(job.companyId, job.contactListId);
  const first = await checkingConnection(job.companyId, candidates);
  // while every connection is stopped, a list's pages of unchecked items are not even read: they wait as they are
  if (job.unchecked && first.stop) return waitForChecks(job.companyId, job.contactListId, first.stop);
  const items = job.unchecked
    ? await uncheckedPage(job)
    : await Promise.all(job.itemIds.map((id) => requireContactListItem(job.companyId, id).catch(() => undefined)));
  const present = items.filter((item) => item !== undefined);
  const cache = await cachedNumberChecks(
    job.companyId,
    first.whatsapp.id,
    present.map((item) => item.number),
  );
  let checks: { number: string; replyTo: string }[] = [];
  for (const item of present) {
    const replyTo = `${REPLY_PREFIX}${item.contactListId}:${item.id}:${item.number}`;
    const cached = cache.get(item.number);
    if (cached) await applyListItemCheck({ companyId: job.companyId, replyTo, exists: cached.exists });
    else checks.push({ number: item.number, replyTo });
  }
  // each connection checks what its budget covers, the next one the rest
  const stops: CheckStop[] = [];
  for (const whatsapp of candidates) {
    if (!checks.length) return;
    const { granted, stop } = await takeChecks(job.companyId, whatsapp, checks.length);
    for (let i = 0; i < granted; i += CHECK_BATCH)
      await sendSessionCommand({
        type: 'checkNumbers',
        companyId: job.companyId,
        whatsappId: whatsapp.id,
        checks: checks.slice(i, Math.min(i + CHECK_BATCH, granted)),
      });
    checks = checks.slice(granted);
    if (stop) stops.push(stop);
  }
  const stop = soonest(stops);
  if (checks.length && stop) await waitForChecks(job.companyId, job.contactListId, stop);
}

/**
 * The list's unchecked items wait for the connection's checks to go on: the list notes why and
 * until when, and one job (the one that moved `checksResumeAt` later) checks them then.
 */
async function waitForChecks(companyId: number, contactListId: number, stop: CheckStop) {
  const resumeAt = new Date(stop.until).toISOString();
  const noted = await updateItem(listKeys(companyId, contactListId), {
    set: { checksWaitReason: stop.reason, checksResumeAt: resumeAt },
    condition: 'attribute_exists(pk) AND (attribute_not_exists(#at) OR attribute_type(#at, :null) OR #at < :at)',
    conditionNames: { '#at': 'checksResumeAt' },
    conditionValues: { ':at': resumeAt, ':null': 'NULL' },
  });
  if (!noted) return;
  await publish(companyId, 'contactList', { action: 'update', record: toContactList(noted) });
  await enqueueCampaignJob(
    { kind: 'checkItems', companyId, contactListId, itemIds: [], unchecked: true, notBefore: stop.until },
    stop.until - Date.now(),
  );
}

/** The list's wait for checks is over once its time came (a later wait noted since stays). */
async function clearChecksWait(companyId: number, contactListId: number) {
  const cleared = await updateItem(listKeys(companyId, contactListId), {
    set: { checksWaitReason: null, checksResumeAt: null },
    condition: 'attribute_exists(pk) AND #at <= :now',
    conditionNames: { '#at': 'checksResumeAt' },
    conditionValues: { ':now': nowIso() },
  });
  if (cleared) await publish(companyId, 'contactList', { action: 'update', record: toContactList(cleared) });
}

/** The number checks the list's items would use now: the connection that checks, and what it may still check today. */
export async function listNumberChecks(companyId: number) {
  const candidates = await checkingConnections(companyId);
  if (!candidates.length) return null;
  const { whatsapp } = await checkingConnection(companyId, candidates);
  const state = await checkBudgetOf(companyId, whatsapp.id);
  return {
    whatsappId: whatsapp.id,
    whatsappName: whatsapp.name,
    dailyBudget: dailyCheckBudgetOf(whatsapp),
    checksLeftToday: checksLeftOf(whatsapp, state),
  };
}

/**
 * A reach-out lock was lifted before its end: lists whose checks waited for it go on now (their
 * job looks at the connections again; a stop still in force makes them wait anew).
 */
export async function resumeLockedChecks(companyId: number) {
  const waiting = await queryAll({
    ...companyLists(companyId),
    filter: '#reason = :lock',
    filterNames: { '#reason': 'checksWaitReason' },
    filterValues: { ':lock': 'reachoutLock' },
  });
  for (const list of waiting.map(toContactList)) {
    const cleared = await updateItem(listKeys(companyId, list.id), {
      set: { checksWaitReason: null, checksResumeAt: null },
      condition: '#reason = :lock',
      conditionNames: { '#reason': 'checksWaitReason' },
      conditionValues: { ':lock': 'reachoutLock' },
    });
    if (!cleared) continue;
    await publish(companyId, 'contactList', { action: 'update', record: toContactList(cleared) });
    await enqueueCampaignJob({ kind: 'checkItems', companyId, contactListId: list.id, itemIds: [], unchecked: true });
  }
}

/** A runner's answers about list items (a check that could not be made leaves its item unchecked). */
export async function applyListItemChecks(event: Extract<InboundEvent, { type: 'checkNumberResults' }>) {
  if (event.error === 'ERR_NUMBER_CHECK_RESTRICTED') {
    await stopChecksToday(event.companyId, event.whatsappId);
    // the refused numbers go to another connection that can check, or wait with the list
    const listIds = new Set(event.results.map((r) => Number(r.replyTo.slice(REPLY_PREFIX.length).split(':')[0])));
    for (const id of listIds)
      await enqueueCampaignJob({
        kind: 'checkItems',
        companyId: event.companyId,
        contactListId: id,
        itemIds: [],
        unchecked: true,
      });
  }
  if (event.error) return;
  for (const result of event.results) {
    await cacheNumberCheck(event.companyId, event.whatsappId, result.number, {
      exists: result.exists,
      jid: result.jid,
    });
    await applyListItemCheck({ ...event, ...result });
  }
}

/** A runner's answer about a list item; false when the answer is not about one. */
export async function applyListItemCheck(
  event: Pick<Extract<InboundEvent, { type: 'checkNumberResult' }>, 'companyId' | 'replyTo' | 'exists' | 'error'>,
) {
  if (!event.replyTo.startsWith(REPLY_PREFIX)) return false;
  if (event.error) return true;
  const [listId, itemId, number] = event.replyTo.slice(REPLY_PREFIX.length).split(':');
  // the item's number may have changed since: the answer counts only for the number it was asked about
  const updated = await updateItem(itemKeys(event.companyId, Number(listId), number!), {
    set: { isWhatsappValid: event.exists, updatedAt: nowIso() },
    condition: 'attribute_exists(pk) AND #id = :id',
    conditionNames: { '#id': 'id' },
    conditionValues: { ':id': Number(itemId) },
  });
  if (updated)
    await publish(event.companyId, 'contactListItem', { action: 'update', record: toContactListItem(updated) });
  return true;
}
