import {
  MAX_CUSTOM_FIELDS_PER_ENTITY,
  fieldKeyOf,
  type CustomField,
  type CustomFieldBody,
  type CustomFieldEntity,
  type CustomFieldUpdateBody,
  type CustomFieldValues,
} from '#shared/schemas/custom-fields';
import { deleteTx, putTx, transact, updateTx } from '../db';
import { AppError } from '../errors';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { mutateTicket } from '../tickets/mutate';
import { toTicket } from '../tickets/repo';
import { assertCanSee, assertMayChangeIn, type Actor } from '../tickets/access';
import { publishTicketChange } from '../tickets/events';
import { auditBy, changesOf, type AuditActor } from '../audit/actor';
import { fieldItem, fieldKeys, fieldsCounter, keyGuardKeys, loadFields, requireField } from './repo';
import { changedValues } from './values';

export { loadFields };

/** Definitions go to the whole company: every attendant's drawer shows them. */
const announce = (
  companyId: number,
  data: { action: 'create' | 'update'; field: CustomField } | { action: 'delete'; fieldId: number },
) => publish(companyId, 'customField', data);

export async function listFields(companyId: number, entity?: CustomFieldEntity): Promise<CustomField[]> {
  const fields = await loadFields(companyId);
  return entity ? fields.filter((f) => f.entity === entity) : fields;
}

/**
 * POST /custom-fields: the key (given, or made from the name) is unique per entity
 * (ERR_CUSTOM_FIELD_KEY_TAKEN); at most MAX_CUSTOM_FIELDS_PER_ENTITY per entity (ERR_LIST_LIMIT_REACHED).
 */
export async function createField(companyId: number, body: CustomFieldBody, actor?: AuditActor): Promise<CustomField> {
  const key = body.key ?? fieldKeyOf(body.name);
  const id = await nextId(companyScope(companyId), 'customField');
  const now = nowIso();
  const field: CustomField = {
    id,
    companyId,
    entity: body.entity,
    key,
    name: body.name,
    type: body.type,
    options: body.type === 'list' ? (body.options ?? []) : [],
    required: body.required ?? false,
    order: body.order ?? id,
    createdAt: now,
    updatedAt: now,
  };
  await transact(
    [
      putTx({ ...keyGuardKeys(companyId, field.entity, key), fieldId: id }, true),
      putTx(fieldItem(field), true),
      counterTx(companyScope(companyId), fieldsCounter(field.entity), 1, MAX_CUSTOM_FIELDS_PER_ENTITY),
    ],
    (index) =>
      index === 0
        ? new AppError('ERR_CUSTOM_FIELD_KEY_TAKEN', undefined, { key })
        : index === 2
          ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, {
              limit: 'customFieldsPerEntity',
              max: MAX_CUSTOM_FIELDS_PER_ENTITY,
            })
          : new AppError('ERR_CONFLICT'),
  );
  await announce(companyId, { action: 'create', field });
  await auditBy(actor, {
    action: 'custom_field.created',
    target: { type: 'customField', id, name: field.name },
    changes: {
      entity: field.entity,
      field: key,
      type: field.type,
      ...(field.options.length ? { options: field.options } : {}),
    },
  });
  return field;
}

/** PUT /custom-fields/{id}: options only for a `list` field, and never none. */
export async function updateField(
  companyId: number,
  id: number,
  body: CustomFieldUpdateBody,
  actor?: AuditActor,
): Promise<CustomField> {
  const before = await requireField(companyId, id);
  if (body.options !== undefined && (before.type !== 'list' || body.options.length === 0))
    throw new AppError('ERR_VALIDATION', 400, [
      { path: ['options'], message: before.type === 'list' ? 'required' : 'invalid' },
    ]);
  const after: CustomField = {
    ...before,
    ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    updatedAt: nowIso(),
  };
  await transact(
    [
      updateTx(fieldKeys(companyId, id), {
        set: {
          name: after.name,
          options: after.options,
          required: after.required,
          order: after.order,
          updatedAt: after.updatedAt,
        },
        condition: 'attribute_exists(pk)',
      }),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  await announce(companyId, { action: 'update', field: after });
  await auditBy(actor, {
    action: 'custom_field.updated',
    target: { type: 'customField', id, name: after.name },
    changes: changesOf(before, after, ['name', 'options', 'required', 'order']),
  });
  return after;
}

/**
 * DELETE /custom-fields/{id}: the definition, its key guard and its count go; values stored under
 * its key stay on contacts and tickets, unread (custom-fields.ts `readFieldValues`).
 */
export async function deleteField(companyId: number, id: number, actor?: AuditActor) {
  const field = await requireField(companyId, id);
  await transact(
    [
      deleteTx(fieldKeys(companyId, id), 'attribute_exists(pk)'),
      deleteTx(keyGuardKeys(companyId, field.entity, field.key)),
      counterTx(companyScope(companyId), fieldsCounter(field.entity), -1),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  await announce(companyId, { action: 'delete', fieldId: id });
  await auditBy(actor, {
    action: 'custom_field.deleted',
    target: { type: 'customField', id, name: field.name },
    changes: { entity: field.entity, field: field.key, type: field.type },
  });
  return { deleted: true };
}

/**
 * PUT /tickets/{id}/custom-fields: whoever may change the ticket (its visibility and the soft lock)
 * sets its values; each is checked by its field. The ticket's realtime update carries them.
 */
export async function setTicketFields(
  companyId: number,
  /** null: the system (an automation rule's action) */
  actor: Actor | null,
  ticketId: number,
  changes: Record<string, unknown>,
) {
  const fields = await loadFields(companyId);
  const { before, after, changed } = await mutateTicket(companyId, ticketId, async (t) => {
    if (actor) {
      await assertCanSee(companyId, actor, t);
      await assertMayChangeIn(companyId, actor, t);
    }
    const values: CustomFieldValues = changedValues(fields, 'ticket', t.customFields, changes);
    return sameValues(values, t.customFields ?? {}) ? null : { ...t, customFields: values };
  });
  const ticket = toTicket(after);
  if (changed) await publishTicketChange(companyId, before, ticket);
  return ticket;
}

const sameValues = (a: CustomFieldValues, b: CustomFieldValues) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
