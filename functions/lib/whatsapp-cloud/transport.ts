import { isCloudProvider } from '#shared/constants';
import type { CloudTransportBody, CloudTransportUpdateBody, Whatsapp } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
import { transact, updateItem, updateTx, type TransactItem } from '../db';
import { nowIso } from '../keys';
import { auditBy, type AuditActor } from '../audit/actor';
import { phoneKey } from '../contacts/repo';
import { requireWhatsapp, toWhatsapp, whatsappKeys } from '../whatsapp/repo';
import {
  armCloudCheck,
  cloudClientFor,
  cloudGuardTxs,
  cloudUpdateFields,
  droppedCloudGuards,
  movedCloudGuards,
  newCloudFields,
  probeCloudNumber,
  type CloudProbe,
} from './connection';
import { graphClient } from './graph';
import { dropTemplates, syncTemplatesQuietly } from './templates';

/**
 * One number, two transports (issue 36, shared/transports.ts): a WhatsApp Web connection takes the
 * Cloud API credentials of its own number as a second transport. The credentials are stored as a
 * Cloud API connection's are (sealed secrets, the same three guards, so Meta's webhooks for the
 * number reach this connection), and the transport's status lives apart from the session's
 * (`cloudTransport`). Attached only after the Graph API confirmed that the phone-number id is the
 * number the WhatsApp Web session is paired with.
 */

const TRANSPORT_FIELDS = [
  'phoneNumberId',
  'wabaId',
  'verifyToken',
  'verifyTokenHash',
  'accessTokenSealed',
  'accessTokenHint',
  'appSecretSealed',
  'appSecretHint',
  'cloudTransport',
  'preferredTransport',
  'templatesSyncedAt',
  'cloudMessagingLimit',
  'cloudQuality',
  'cloudQualityEvent',
  'cloudQualityEventAt',
];

/** The number as others read it: only its last 4 digits (an error's details go to the admin who typed it). */
const masked = (number: string) => `…${number.slice(-4)}`;

/** The transport's part of a probe, stored on the connection (its status never touches the session's). */
const transportState = (probe: CloudProbe, attachedAt: string): NonNullable<Whatsapp['cloudTransport']> => ({
  status: probe.status,
  ...(probe.statusReason ? { statusReason: probe.statusReason } : {}),
  attachedAt,
});

const healthFields = (probe: CloudProbe) => ({
  ...(probe.messagingLimit !== undefined ? { cloudMessagingLimit: probe.messagingLimit } : {}),
  ...(probe.quality ? { cloudQuality: probe.quality } : {}),
});

/**
 * `POST /whatsapp/{id}/cloud-transport`: the connection must be a WhatsApp Web one, paired (its number
 * known), without a Cloud API transport yet; the Graph API must answer for the phone-number id with
 * the same number (a Brazilian mobile with or without its ninth digit is one number). Refused with
 * ERR_TRANSPORT_NUMBER_UNKNOWN, ERR_TRANSPORT_UNREACHABLE (`details.reason`) or
 * ERR_TRANSPORT_NUMBER_MISMATCH; a number another connection holds is ERR_CLOUD_NUMBER_IN_USE.
 */
export async function attachCloudTransport(
  companyId: number,
  id: number,
  body: CloudTransportBody,
  by?: AuditActor,
): Promise<Whatsapp> {
  const current = await requireWhatsapp(companyId, id);
  if (isCloudProvider(current.provider)) throw new AppError('ERR_NOT_SUPPORTED_BY_CLOUD');
  if (current.cloudTransport) throw new AppError('ERR_TRANSPORT_ATTACHED');
  const webNumber = phoneKey(current.number);
  if (!webNumber) throw new AppError('ERR_TRANSPORT_NUMBER_UNKNOWN');
  const probe = await probeCloudNumber(graphClient(body.accessToken), body.phoneNumberId);
  if (!probe.number) throw new AppError('ERR_TRANSPORT_UNREACHABLE', undefined, { reason: probe.statusReason });
  if (phoneKey(probe.number) !== webNumber)
    throw new AppError('ERR_TRANSPORT_NUMBER_MISMATCH', undefined, {
      web: masked(current.number!),
      cloud: masked(probe.number),
    });
  const fields = await newCloudFields({ ...body, name: current.name, provider: 'cloud' });
  const attachedAt = nowIso();
  const items: [TransactItem, AppError][] = [
    [
      updateTx(whatsappKeys(companyId, id), {
        set: {
          ...fields,
          ...healthFields(probe),
          cloudTransport: transportState(probe, attachedAt),
          preferredTransport: body.preferredTransport ?? 'web',
          updatedAt: attachedAt,
        },
        // still the same paired Web connection, and still without a transport (two admins at once)
        condition: 'attribute_exists(pk) AND attribute_not_exists(cloudTransport) AND #number = :number',
        conditionNames: { '#number': 'number' },
        conditionValues: { ':number': current.number },
      }),
      new AppError('ERR_CONFLICT'),
    ],
    ...cloudGuardTxs(companyId, id, fields),
  ];
  await transact(
    items.map(([tx]) => tx),
    (index) => items[index]?.[1] ?? new AppError('ERR_CONFLICT'),
  );
  await armCloudCheck(companyId, id);
  if (probe.status === 'CONNECTED') await syncTemplatesQuietly(companyId, id);
  const attached = await requireWhatsapp(companyId, id);
  await auditBy(by, {
    action: 'connection.transport_attached',
    target: { type: 'connection', id, name: attached.name },
    changes: { phoneNumberId: { from: null, to: fields.phoneNumberId }, wabaId: { from: null, to: fields.wabaId } },
  });
  return attached;
}

/**
 * `PUT /whatsapp/{id}/cloud-transport`: the preferred transport, and credentials rotated as on a Cloud
 * API connection (the phone-number id is fixed: another number is another transport). New
 * credentials are checked against the Graph API at once.
 */
export async function updateCloudTransport(
  companyId: number,
  id: number,
  body: CloudTransportUpdateBody,
  by?: AuditActor,
): Promise<Whatsapp> {
  const current = await requireWhatsapp(companyId, id);
  if (!current.cloudTransport) throw new AppError('ERR_TRANSPORT_NOT_ATTACHED');
  const cloud = await cloudUpdateFields({ ...current, provider: 'cloud' }, body);
  const items: TransactItem[] = [
    updateTx(whatsappKeys(companyId, id), {
      set: {
        ...cloud.set,
        ...(body.preferredTransport ? { preferredTransport: body.preferredTransport } : {}),
        updatedAt: nowIso(),
      },
      condition: 'attribute_exists(cloudTransport)',
    }),
  ];
  items.push(...(await movedCloudGuards(companyId, id, current, cloud.set)));
  await transact(items, (index) =>
    index === 0
      ? new AppError('ERR_TRANSPORT_NOT_ATTACHED')
      : new AppError('ERR_DUPLICATED', 409, [{ path: ['verifyToken'], message: 'duplicated' }]),
  );
  if (cloud.changed.length) {
    await auditBy(by, {
      action: 'connection.credentials_changed',
      target: { type: 'connection', id, name: current.name },
      changes: { changedFields: cloud.changed },
    });
    return (await probeCloudTransport(companyId, id)) ?? requireWhatsapp(companyId, id);
  }
  return requireWhatsapp(companyId, id);
}

/** `DELETE /whatsapp/{id}/cloud-transport`: the connection is WhatsApp Web only again; its guards and templates go. */
export async function detachCloudTransport(companyId: number, id: number, by?: AuditActor): Promise<Whatsapp> {
  const current = await requireWhatsapp(companyId, id);
  if (!current.cloudTransport) throw new AppError('ERR_TRANSPORT_NOT_ATTACHED');
  const items: TransactItem[] = [
    updateTx(whatsappKeys(companyId, id), {
      remove: TRANSPORT_FIELDS,
      set: { updatedAt: nowIso() },
      condition: 'attribute_exists(cloudTransport)',
    }),
  ];
  items.push(...(await droppedCloudGuards(companyId, id, current.wabaId)));
  await transact(items, () => new AppError('ERR_TRANSPORT_NOT_ATTACHED'));
  await dropTemplates(companyId, id);
  await auditBy(by, {
    action: 'connection.transport_detached',
    target: { type: 'connection', id, name: current.name },
    changes: { phoneNumberId: { from: current.phoneNumberId ?? null, to: null } },
  });
  return requireWhatsapp(companyId, id);
}

/**
 * The attached transport's status from the Graph API (on attach, on new credentials, hourly with the
 * Cloud API connections' check): stored on `cloudTransport` only, never on the session's status.
 */
export async function probeCloudTransport(companyId: number, id: number): Promise<Whatsapp | undefined> {
  const current = await requireWhatsapp(companyId, id);
  if (!current.cloudTransport || !current.phoneNumberId) return current;
  const probe = await probeCloudNumber(await cloudClientFor(companyId, id), current.phoneNumberId);
  const item = await updateItem(whatsappKeys(companyId, id), {
    set: {
      cloudTransport: transportState(probe, current.cloudTransport.attachedAt),
      ...healthFields(probe),
      updatedAt: nowIso(),
    },
    condition: 'attribute_exists(cloudTransport)',
  });
  return item ? toWhatsapp(item) : undefined;
}
