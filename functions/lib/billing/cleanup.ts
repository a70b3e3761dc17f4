import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { batchWrite, deleteItem, deleteTx, query, transact, updateTx, type Item, type Key } from '../db';
import { config } from '../config';
import { log } from '../log';
import { s3, tenantPrefix } from '../storage';
import { companyKeys, queryCompaniesToClean } from '../accounts/companies';
import { emailKeys } from '../accounts/users';
import { planKeys } from '../accounts/plans';
import { cloudNumberKeys, tokenGuardKeys, verifyTokenKeys } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { lidGuardKeys, numberGuardKeys } from '../contacts/repo';
import { uuidKeys } from '../tickets/repo';
import { widGuardKeys } from '../messages/repo';
import { pad } from '../keys';
import { isCloudProvider } from '#shared/constants';
import { removeCompanySubscriptions } from '../push/repo';

/**
 * Removes a deleted company (marked `deletingAt` by `DELETE /companies/{id}`, found by the
 * `company-cleanup` timer on the cleanup index) without a Scan: the
 * company partition `C#<cid>` is read page by page, and each item names the partitions and guards
 * that hang off it (a user's e-mail guard and sessions, a connection's token guard and auth keys, a
 * contact's messages, notes and number guards, a ticket's rounds and uuid pointer, a tag's links,
 * a chat's messages and its members' memberships, a campaign's shipping items, a contact list's
 * items, a payment's provider pointer);
 * the company's fixed partitions follow, then its media under `company<cid>/`, and the company item
 * last. Every step is a delete, so a run cut short is simply run again.
 */
// automation runs (`AUTORUN#...`) are left to their TTL (RUN_RETENTION_DAYS)
const FIXED_PARTITIONS = [
  'WS',
  'TCOUNT',
  'DASH',
  'SLA',
  'WSENT',
  'WNUMBER',
  'CAMPLIMIT',
  'KB',
  'KBQ',
  'CFIELDS',
  'SEGMENTS',
  'RULES',
  'AUTOCAP',
];

async function drain(pk: string, onItem?: (item: Item) => Key[] | Promise<Key[]>) {
  let startKey: Item | undefined;
  let removed = 0;
  do {
    const page = await query({ pk, startKey, limit: 200 });
    const extra: Key[] = [];
    for (const item of page.items) if (onItem) extra.push(...(await onItem(item)));
    await batchWrite([], [...extra, ...page.items.map((i) => ({ pk: i.pk as string, sk: i.sk as string }))]);
    removed += page.items.length;
    startKey = page.lastKey;
  } while (startKey);
  return removed;
}

async function deleteMedia(companyId: number) {
  const Bucket = config().mediaBucket;
  let token: string | undefined;
  let removed = 0;
  do {
    const out = await s3().send(
      new ListObjectsV2Command({ Bucket, Prefix: tenantPrefix(companyId), ContinuationToken: token }),
    );
    const keys = (out.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length) await s3().send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
    removed += keys.length;
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return removed;
}

export async function cleanupCompany(companyId: number, planId: number) {
  const c = `C#${companyId}`;
  const company = await query({ pk: c, sk: { eq: 'COMPANY' } });
  if (!company.items.length) return { removed: 0 };
  if (!company.items[0]!.deletingAt) {
    log.warn('cleanup refused: company is not being deleted', { companyId });
    return { removed: 0 };
  }
  const whatsappIds: number[] = [];
  const main: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await query({ pk: c, startKey, limit: 500 });
    main.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  for (const item of main) if (String(item.sk).startsWith('WHATSAPP#')) whatsappIds.push(Number(item.id));

  let removed = 0;
  for (const item of main) {
    const sk = String(item.sk);
    if (sk.startsWith('USER#')) {
      await deleteItem(emailKeys(String(item.email)));
      removed += await drain(`SESSIONS#${companyId}#${item.id}`);
      // the user's chat memberships and announcement read marks
      removed += await drain(`${c}#UCHAT#${item.id}`);
      removed += await drain(`${c}#ANNREAD#${item.id}`);
    } else if (sk.startsWith('WHATSAPP#')) {
      // logs the phone out and drops its keys, lease and wanted mark (the runner's part)
      if (!isCloudProvider(String(item.provider)))
        await sendSessionCommand({ type: 'disconnect', companyId, whatsappId: Number(item.id) });
      if (item.tokenHash) await deleteItem(tokenGuardKeys(String(item.tokenHash)));
      // a Cloud API connection's platform-wide guards: its number may join another company later
      if (item.phoneNumberId) await deleteItem(cloudNumberKeys(String(item.phoneNumberId)));
      if (item.verifyTokenHash) await deleteItem(verifyTokenKeys(String(item.verifyTokenHash)));
      removed += await drain(`${c}#WAUTH#${item.id}`);
    } else if (sk.startsWith('CONTACT#')) {
      if (item.number) await deleteItem(numberGuardKeys(companyId, String(item.number)));
      if (item.lid) await deleteItem(lidGuardKeys(companyId, String(item.lid)));
      removed += await drain(`${c}#NOTES#${item.id}`);
      for (const w of whatsappIds) {
        removed += await drain(`${c}#MSG#${item.id}#${w}`, (m) =>
          // a Cloud API send's wamid may have its guard before the message took it as its wid
          [...new Set([m.wid, m.cloudWamid].filter(Boolean))].map((wid) => widGuardKeys(companyId, String(wid))),
        );
      }
    } else if (sk.startsWith('TICKET#')) {
      if (item.uuid) await deleteItem(uuidKeys(companyId, String(item.uuid)));
      removed += await drain(`${c}#T#${pad(Number(item.id))}`);
    } else if (sk.startsWith('TAG#')) {
      removed += await drain(`${c}#TAGT#${item.id}`);
    } else if (sk.startsWith('CHAT#')) {
      removed += await drain(`${c}#CHATMSG#${pad(Number(item.id))}`);
    } else if (sk.startsWith('CAMPAIGN#')) {
      removed += await drain(`${c}#CAMPSHIP#${item.id}`);
    } else if (sk.startsWith('CONTACTLIST#')) {
      removed += await drain(`${c}#CLI#${item.id}`);
    } else if (sk.startsWith('PAYMENT#') && item.provider && item.ref) {
      await deleteItem({ pk: `PAYREF#${item.provider}#${item.ref}`, sk: 'PAYREF' });
    }
  }
  for (const suffix of FIXED_PARTITIONS) removed += await drain(`${c}#${suffix}`);
  // Web Push devices, with the endpoint owner records that still name the company
  removed += await removeCompanySubscriptions(companyId);
  const media = await deleteMedia(companyId);
  const rest = main.filter((i) => i.sk !== 'COMPANY').map((i) => ({ pk: i.pk as string, sk: i.sk as string }));
  await batchWrite([], rest);
  // the plan's count and the company go together, so a run cut short never counts twice
  await transact([
    updateTx(planKeys(planId), { add: { companiesCount: -1 } }),
    deleteTx(companyKeys(companyId), 'attribute_exists(pk)'),
  ]);
  removed += rest.length + 1;
  log.info('company deleted', { companyId, items: removed, media });
  return { removed, media };
}

/** The `company-cleanup` timer: every company on the cleanup index, one after the other. */
export async function runCompanyCleanup() {
  let cleaned = 0;
  let startKey: Item | undefined;
  do {
    const page = await queryCompaniesToClean(startKey);
    for (const company of page.companies) {
      try {
        await cleanupCompany(company.id, company.planId);
        cleaned++;
      } catch (err) {
        log.error('company cleanup failed; the next run continues', {
          companyId: company.id,
          error: (err as Error).message,
        });
      }
    }
    startKey = page.lastKey;
  } while (startKey);
  return { cleaned };
}
