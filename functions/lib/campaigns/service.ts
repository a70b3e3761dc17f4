import { isCloudProvider, PAGE_SIZE } from '#shared/constants';
import { MSG } from '#shared/schemas/common';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import {
  CAMPAIGN_EDIT_WINDOW_MS,
  type Campaign,
  type CampaignBody,
  type CampaignReport,
  type ConnectionLimit,
} from '#shared/schemas/campaigns';
import { AppError } from '../errors';
import {
  batchGet,
  batchWrite,
  itemsOf,
  deleteItem,
  putItem,
  query,
  queryAll,
  updateItem,
  type Item,
  type Key,
} from '../db';
import { decodeCursor, page } from '../cursor';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { presignGet, storeUpload, deleteObject } from '../storage';
import { publish } from '../realtime';
import type { UploadedFile } from '../multipart';
import { listKeys, toContactList } from '../contact-lists/repo';
import { requireContactList } from '../contact-lists/repo';
import { requireTag } from '../tags/repo';
import { requireSegment, segmentKeys } from '../segments/repo';
import { requireFileList } from '../files/repo';
import { listWhatsapps, requireWhatsapp, whatsappKeys, toWhatsapp } from '../whatsapp/repo';
import {
  CAMPAIGN_DUE_PK,
  campaignDueIndex,
  companyCampaigns,
  campaignItem,
  campaignKeys,
  requireStoredCampaign,
  shippingPk,
  toCampaign,
  toShipping,
  toStoredCampaign,
  type StoredCampaign,
} from './repo';
import { checkTemplateInput } from '../whatsapp-cloud/templates';
import { announceCampaign } from './events';
import { enqueueCampaignJob } from './jobs';
import { checksLeftOf, companyCheckBudgets } from './check-budget';
import { ageDays, clearConnectionPause, companyLimits, dailyCapOf, LIMITER, sentTodayOf } from './limiter';

const notEditable = () => new AppError('ERR_CAMPAIGN_NOT_EDITABLE');

/** Adds the contact list and connection names and a media URL, as the list and dialog show them. */
async function present(items: Item[]): Promise<Campaign[]> {
  const campaigns = items.map(toCampaign);
  if (!campaigns.length) return [];
  const companyId = campaigns[0]!.companyId;
  const listIds = [...new Set(campaigns.map((c) => c.contactListId).filter((id): id is number => Boolean(id)))];
  const whatsappIds = [...new Set(campaigns.map((c) => c.whatsappId).filter((id): id is number => Boolean(id)))];
  const segmentIds = [...new Set(campaigns.map((c) => c.segmentId).filter((id): id is number => Boolean(id)))];
  const related = await batchGet([
    ...listIds.map((id) => listKeys(companyId, id)),
    ...segmentIds.map((id) => segmentKeys(companyId, id)),
    ...whatsappIds.map((id) => whatsappKeys(companyId, id)),
  ]);
  const lists = new Map(
    related.filter((i) => String(i.sk).startsWith('CONTACTLIST#')).map((i) => [i.id as number, toContactList(i)]),
  );
  const whatsapps = new Map(
    related.filter((i) => String(i.sk).startsWith('WHATSAPP#')).map((i) => [i.id as number, toWhatsapp(i)]),
  );
  const segments = new Map(
    related.filter((i) => String(i.sk).startsWith('SEG#')).map((i) => [i.id as number, String(i.name)]),
  );
  return Promise.all(
    campaigns.map(async (c) => {
      const list = c.contactListId ? lists.get(c.contactListId) : undefined;
      const whatsapp = c.whatsappId ? whatsapps.get(c.whatsappId) : undefined;
      return {
        ...c,
        contactList: list ? { id: list.id, name: list.name } : null,
        segment:
          c.segmentId && segments.has(c.segmentId) ? { id: c.segmentId, name: segments.get(c.segmentId)! } : null,
        whatsapp: whatsapp ? { id: whatsapp.id, name: whatsapp.name } : null,
        ...(c.mediaPath ? { mediaUrl: await presignGet(c.companyId, c.mediaPath) } : {}),
      };
    }),
  );
}
const presentOne = async (item: Item) => (await present([item]))[0]!;

export const getCampaign = async (companyId: number, id: number) =>
  presentOne(campaignItem(await requireStoredCampaign(companyId, id)));

export async function listCampaigns(companyId: number, f: { searchParam?: string; cursor?: string; limit?: number }) {
  const where = companyCampaigns(companyId);
  const out = await query({
    ...where,
    forward: false,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(f.searchParam
      ? { filter: 'contains(#n, :q)', filterNames: { '#n': 'nameLower' }, filterValues: { ':q': f.searchParam } }
      : {}),
  });
  const paged = await page(companyId, await present(out.items), out.lastKey, where);
  return { records: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/** The references of the form belong to the company (a foreign id is ERR_NOT_FOUND). */
async function checkReferences(companyId: number, body: CampaignBody, mediaPath?: string | null) {
  if (body.whatsappId) assertCampaignTemplate(await requireWhatsapp(companyId, body.whatsappId), body, mediaPath);
  if (body.template && body.whatsappId) await checkTemplateInput(companyId, body.whatsappId, body.template);
  if (body.contactListId) await requireContactList(companyId, body.contactListId);
  if (body.tagId) await requireTag(companyId, body.tagId);
  if (body.segmentId) await requireSegment(companyId, body.segmentId);
  if (body.fileListId) await requireFileList(companyId, body.fileListId);
}

/**
 * A Cloud API connection's campaign is a template (ERR_VALIDATION `template` required), and sends
 * nothing else: no file list, no campaign media (Meta would refuse them outside the window, after
 * the template went). A WhatsApp Web connection has no templates (ERR_TEMPLATES_NEED_CLOUD).
 */
function assertCampaignTemplate(whatsapp: Whatsapp, body: CampaignBody, mediaPath?: string | null) {
  const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', 400, [{ path: [path], message }]);
  if (!isCloudProvider(whatsapp.provider)) {
    if (body.template) throw new AppError('ERR_TEMPLATES_NEED_CLOUD');
    return;
  }
  if (!body.template) throw invalid('template', MSG.required);
  if (body.fileListId) throw invalid('fileListId', 'not with a template');
  if (mediaPath) throw invalid('mediaPath', 'not with a template');
}

const fields = (body: CampaignBody) => ({
  name: body.name,
  message1: body.message1,
  message2: body.message2,
  message3: body.message3,
  message4: body.message4,
  message5: body.message5,
  whatsappId: body.whatsappId ?? null,
  // one audience: a contact list wins over a segment, a segment over a tag
  contactListId: body.contactListId ?? null,
  segmentId: body.contactListId ? null : (body.segmentId ?? null),
  tagId: body.contactListId || body.segmentId ? null : (body.tagId ?? null),
  fileListId: body.fileListId ?? null,
  template: body.template ?? null,
  scheduledAt: body.scheduledAt ?? null,
});

/** New campaigns are INATIVA; with a scheduledAt they are PROGRAMADA and start when it comes (management.md 4). */
export async function createCampaign(companyId: number, body: CampaignBody) {
  await checkReferences(companyId, body);
  const id = await nextId(companyScope(companyId), 'campaign');
  const now = nowIso();
  const f = fields(body);
  const c: StoredCampaign = {
    id,
    companyId,
    ...f,
    status: f.scheduledAt ? 'PROGRAMADA' : 'INATIVA',
    completedAt: null,
    mediaPath: null,
    mediaName: null,
    mediaMimetype: null,
    pauseReason: null,
    waitReason: null,
    validContacts: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    createdAt: now,
    updatedAt: now,
  };
  const item = { ...campaignItem(c), ...(f.scheduledAt ? campaignDueIndex(companyId, id, f.scheduledAt) : {}) };
  await putItem(item, { ifNotExists: true });
  await announceCampaign(item, 'create');
  return presentOne(item);
}

/**
 * Editable only while INATIVA, or PROGRAMADA more than an hour before scheduledAt; a CANCELADA
 * campaign may still be saved (management.md 4). The check is repeated in the write's condition.
 */
function editCondition(now: number) {
  return {
    condition:
      'attribute_exists(pk) AND (#status IN (:inactive, :canceled) OR (#status = :scheduled AND #at > :limit))',
    conditionNames: { '#status': 'status', '#at': 'scheduledAt' },
    conditionValues: {
      ':inactive': 'INATIVA',
      ':canceled': 'CANCELADA',
      ':scheduled': 'PROGRAMADA',
      ':limit': new Date(now + CAMPAIGN_EDIT_WINDOW_MS).toISOString(),
    },
  };
}

export function isEditable(c: Pick<Campaign, 'status' | 'scheduledAt'>, now = Date.now()) {
  if (c.status === 'INATIVA' || c.status === 'CANCELADA') return true;
  return c.status === 'PROGRAMADA' && !!c.scheduledAt && Date.parse(c.scheduledAt) - now > CAMPAIGN_EDIT_WINDOW_MS;
}

async function updateEditable(
  companyId: number,
  current: StoredCampaign,
  set: Record<string, unknown>,
  remove: string[] = [],
) {
  const now = Date.now();
  if (!isEditable(current, now)) throw notEditable();
  const updated = await updateItem(campaignKeys(companyId, current.id), {
    set: { ...set, updatedAt: nowIso() },
    remove,
    ...editCondition(now),
  });
  if (!updated) throw notEditable();
  await announceCampaign(updated, 'update');
  return presentOne(updated);
}

export async function updateCampaign(companyId: number, id: number, body: CampaignBody) {
  const current = await requireStoredCampaign(companyId, id);
  if (!isEditable(current)) throw notEditable();
  await checkReferences(companyId, body, current.mediaPath);
  const f = fields(body);
  if (current.status === 'CANCELADA') return updateEditable(companyId, current, f);
  // the date decides between INATIVA and PROGRAMADA (and the start on the due index)
  return f.scheduledAt
    ? updateEditable(companyId, current, {
        ...f,
        status: 'PROGRAMADA',
        ...campaignDueIndex(companyId, id, f.scheduledAt),
      })
    : updateEditable(companyId, current, { ...f, status: 'INATIVA' }, ['gsi4pk', 'gsi4sk']);
}

/** A running campaign must be canceled first; deleting removes its shipping items. */
export async function deleteCampaign(companyId: number, id: number) {
  const c = await requireStoredCampaign(companyId, id);
  if (c.status === 'EM_ANDAMENTO') throw notEditable();
  const removed = await updateItem(campaignKeys(companyId, id), {
    set: { status: 'CANCELADA' },
    condition: '#status <> :running',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':running': 'EM_ANDAMENTO' },
  });
  if (!removed) throw notEditable();
  await deleteItem(campaignKeys(companyId, id));
  const keys = await queryAll<Key>({ pk: shippingPk(companyId, id), projection: ['pk', 'sk'] });
  await batchWrite([], keys);
  if (c.mediaPath) await deleteObject(c.mediaPath).catch(() => undefined);
  await publish(companyId, 'campaign', { action: 'delete', id });
}

/**
 * Starts a campaign now (the due timer at scheduledAt): EM_ANDAMENTO, planning from page 0.
 * Conditional on PROGRAMADA, so two timer runs start it once.
 */
export async function startCampaign(companyId: number, id: number) {
  const started = await updateItem(campaignKeys(companyId, id), {
    set: {
      status: 'EM_ANDAMENTO',
      startedAt: nowIso(),
      planPage: 0,
      step: 0,
      updatedAt: nowIso(),
      ...campaignDueIndex(companyId, id, new Date(Date.now() + 15 * 60_000).toISOString()),
    },
    condition: '#status = :scheduled',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':scheduled': 'PROGRAMADA' },
  });
  if (!started) return false;
  await enqueueCampaignJob({ kind: 'plan', companyId, campaignId: id, page: 0 });
  await announceCampaign(started, 'update');
  return true;
}

/** POST /campaigns/{id}/cancel: a scheduled, running or paused campaign stops; the next send step finds it canceled. */
export async function cancelCampaign(companyId: number, id: number) {
  await requireStoredCampaign(companyId, id);
  const updated = await updateItem(campaignKeys(companyId, id), {
    set: { status: 'CANCELADA', waitReason: null, resumeAt: null, updatedAt: nowIso() },
    remove: ['gsi4pk', 'gsi4sk'],
    condition: '#status IN (:running, :scheduled, :paused)',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':running': 'EM_ANDAMENTO', ':scheduled': 'PROGRAMADA', ':paused': 'PAUSADA' },
  });
  if (!updated) throw notEditable();
  await announceCampaign(updated, 'update');
  return presentOne(updated);
}

/**
 * POST /campaigns/{id}/restart: a canceled or paused campaign runs again from where it stopped
 * (EM_ANDAMENTO). A new step makes any job still in flight stale, so nothing is sent twice: sent
 * contacts stay behind the cursor, planning goes on from its saved page. A pause of its connection
 * is lifted.
 */
export async function restartCampaign(companyId: number, id: number) {
  const c = await requireStoredCampaign(companyId, id);
  if (c.status !== 'CANCELADA' && c.status !== 'PAUSADA') throw notEditable();
  const step = (c.step ?? 0) + 1;
  const updated = await updateItem(campaignKeys(companyId, id), {
    set: {
      status: 'EM_ANDAMENTO',
      step,
      pauseReason: null,
      waitReason: null,
      completedAt: null,
      updatedAt: nowIso(),
      ...(c.planPage === undefined ? { planPage: 0, startedAt: nowIso() } : {}),
      ...campaignDueIndex(companyId, id, new Date(Date.now() + 15 * 60_000).toISOString()),
    },
    condition: '#status = :was AND (attribute_not_exists(#step) OR #step = :step)',
    conditionNames: { '#status': 'status', '#step': 'step' },
    conditionValues: { ':was': c.status, ':step': c.step ?? 0 },
  });
  if (!updated) throw new AppError('ERR_CONFLICT');
  if (c.whatsappId) await clearConnectionPause(companyId, c.whatsappId);
  const stored = toStoredCampaign(updated);
  if (stored.plannedAt) await enqueueCampaignJob({ kind: 'send', companyId, campaignId: id, step });
  else
    await enqueueCampaignJob({
      kind: 'plan',
      companyId,
      campaignId: id,
      page: stored.planPage ?? 0,
      startKey: (updated.planStartKey as Record<string, unknown> | undefined) ?? undefined,
    });
  await announceCampaign(updated, 'update');
  return presentOne(updated);
}

/**
 * The due timer: starts PROGRAMADA campaigns whose scheduledAt passed (also after downtime), and
 * restarts the chain of a running campaign whose watch time passed without a step (a lost job).
 */
export async function dispatchDueCampaigns(now = new Date()) {
  let started = 0;
  let recovered = 0;
  let startKey: Item | undefined;
  do {
    const out = await query({
      index: 'gsi4',
      pk: CAMPAIGN_DUE_PK,
      sk: { lte: `${now.toISOString()}#~` },
      limit: 100,
      startKey,
    });
    // gsi4 copies only keys and status (infra/table.ts): the campaigns themselves, by key
    const due = await itemsOf(out.items);
    for (const item of due) {
      const c = toStoredCampaign(item);
      if (c.status === 'PROGRAMADA') {
        if (await startCampaign(c.companyId, c.id)) started++;
      } else if (c.status === 'EM_ANDAMENTO') {
        const step = (c.step ?? 0) + 1;
        const moved = await updateItem(campaignKeys(c.companyId, c.id), {
          set: { step, ...campaignDueIndex(c.companyId, c.id, new Date(now.getTime() + 15 * 60_000).toISOString()) },
          condition: '#status = :running AND #step = :step',
          conditionNames: { '#status': 'status', '#step': 'step' },
          conditionValues: { ':running': 'EM_ANDAMENTO', ':step': c.step ?? 0 },
        });
        if (!moved) continue;
        recovered++;
        if (c.plannedAt) await enqueueCampaignJob({ kind: 'send', companyId: c.companyId, campaignId: c.id, step });
        else
          await enqueueCampaignJob({
            kind: 'plan',
            companyId: c.companyId,
            campaignId: c.id,
            page: c.planPage ?? 0,
            startKey: item.planStartKey,
          });
      }
    }
    startKey = out.lastKey;
  } while (startKey);
  return { started, recovered };
}

/** Campaign media (any type the upload policy allows), while the campaign is editable. */
export async function attachCampaignMedia(companyId: number, id: number, file: UploadedFile) {
  const current = await requireStoredCampaign(companyId, id);
  if (!isEditable(current)) throw notEditable();
  if (current.template)
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['mediaPath'], message: 'not with a template' }]);
  const { key, mimetype } = await storeUpload(companyId, 'campaigns', file);
  try {
    const out = await updateEditable(companyId, current, {
      mediaPath: key,
      mediaName: file.fileName,
      mediaMimetype: mimetype,
    });
    if (current.mediaPath) await deleteObject(current.mediaPath).catch(() => undefined);
    return out;
  } catch (err) {
    await deleteObject(key).catch(() => undefined);
    throw err;
  }
}

export async function removeCampaignMedia(companyId: number, id: number) {
  const current = await requireStoredCampaign(companyId, id);
  const out = await updateEditable(companyId, current, { mediaPath: null, mediaName: null, mediaMimetype: null });
  if (current.mediaPath) await deleteObject(current.mediaPath).catch(() => undefined);
  return out;
}

/** GET /campaigns/{id}/report: the counters, progress = delivered / valid contacts, and a page of shipping. */
export async function campaignReport(
  companyId: number,
  id: number,
  f: { cursor?: string; limit?: number },
): Promise<CampaignReport> {
  const campaign = await getCampaign(companyId, id);
  const where = { pk: shippingPk(companyId, id), sk: { beginsWith: 'S#' } };
  const out = await query({ ...where, limit: f.limit ?? 50, startKey: await decodeCursor(companyId, f.cursor, where) });
  const paged = await page(companyId, out.items.map(toShipping), out.lastKey, where);
  const { validContacts, sent, delivered, read, failed } = campaign;
  return {
    campaign,
    validContacts,
    sent,
    delivered,
    read,
    failed,
    progress: validContacts ? Math.round((delivered / validContacts) * 10000) / 100 : 0,
    shipping: paged.items,
    hasMore: paged.hasMore,
    cursor: paged.cursor,
  };
}

/** GET /campaigns/limits: the limiter's view of every connection (cap, today's sends, warm-up, pause, checks left). */
export async function connectionLimits(companyId: number): Promise<ConnectionLimit[]> {
  const [whatsapps, limits, budgets] = await Promise.all([
    listWhatsapps(companyId),
    companyLimits(companyId),
    companyCheckBudgets(companyId),
  ]);
  return whatsapps.map((w) => {
    const l = limits.get(w.id) ?? {};
    return {
      whatsappId: w.id,
      name: w.name,
      dailyCap: dailyCapOf(w),
      sentToday: sentTodayOf(l),
      warmingUp: !isCloudProvider(w.provider) && ageDays(w) < LIMITER.WARMUP_DAYS,
      ageDays: ageDays(w),
      pausedReason: l.pausedReason ?? null,
      pausedAt: l.pausedAt ?? null,
      checksLeftToday: isCloudProvider(w.provider) ? null : checksLeftOf(w, budgets.get(w.id) ?? {}),
    };
  });
}
