import { useState } from 'react';
import { Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  type CustomField,
  type CustomFieldEntity,
  type CustomFieldValue,
  type CustomFieldValues,
  contactFieldValues,
  readFieldValues,
} from '#shared/schemas/custom-fields';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { formatDate } from '../lib/format';
import { FieldInput } from './FieldInput';
import { useCustomFields } from './useCustomFields';

type ExtraInfo = { name: string; value: string }[];

/** A value as the panel shows it. */
function shown(field: CustomField, value: CustomFieldValue, yesNo: [string, string]) {
  if (field.type === 'checkbox') return value === true ? yesNo[0] : yesNo[1];
  if (field.type === 'date' && typeof value === 'string') return formatDate(`${value}T12:00:00`);
  if (field.type === 'link' && typeof value === 'string')
    return (
      <Link href={value} target="_blank" rel="noopener noreferrer">
        {value}
      </Link>
    );
  return String(value);
}

/**
 * The custom fields of a contact or a ticket: read, then edited in place and saved with one PUT. A
 * contact's extra info that a field claims shows as that field's value; the rest shows below.
 */
export function FieldsPanel({
  entity,
  record,
  path,
  onSaved,
}: {
  entity: CustomFieldEntity;
  record: { customFields?: CustomFieldValues; extraInfo?: ExtraInfo } | undefined;
  /** the PUT that saves the values */
  path: string;
  onSaved(record: unknown): void;
}) {
  const { t } = useTranslation(['customFields', 'common']);
  const { fields } = useCustomFields(entity);
  const [draft, setDraft] = useState<Record<string, CustomFieldValue | ''> | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const { values, otherInfo } =
    entity === 'contact'
      ? contactFieldValues(fields, record ?? {})
      : { values: readFieldValues(fields, 'ticket', record?.customFields), otherInfo: [] as ExtraInfo };
  if (!fields.length && !otherInfo.length) return null;

  const save = async () => {
    if (!draft) return;
    const changes = Object.fromEntries(
      Object.entries(draft)
        .filter(([key, v]) => v !== (values[key] ?? ''))
        .map(([key, v]) => [key, v === '' ? null : v]),
    );
    setBusy(true);
    try {
      const saved = await api.put(path, { customFields: changes });
      onSaved(saved);
      setDraft(null);
      setErrors({});
      notify.success(t('panel.saved'));
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.details))
        setErrors(
          Object.fromEntries(
            (err.details as { path: string[]; message: string }[]).map((d) => [
              d.path[1],
              t(`common:validation.${d.message}`, { defaultValue: d.message }),
            ]),
          ),
        );
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const filled = fields.filter((f) => values[f.key] !== undefined);
  return (
    <Paper variant="outlined" sx={{ mt: 2, p: 1.5 }} component="section" aria-label={t(`panel.${entity}`)}>
      <Typography variant="subtitle2" gutterBottom>
        {t(`panel.${entity}`)}
      </Typography>
      {draft ? (
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          {fields.map((f) => (
            <FieldInput
              key={f.id}
              field={f}
              value={draft[f.key]}
              error={errors[f.key]}
              onChange={(v) => setDraft({ ...draft, [f.key]: v })}
            />
          ))}
          <Stack direction="row" spacing={1}>
            <Button size="small" variant="contained" disabled={busy} onClick={() => void save()}>
              {t('panel.save')}
            </Button>
            <Button
              size="small"
              onClick={() => {
                setDraft(null);
                setErrors({});
              }}
            >
              {t('panel.cancel')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <>
          {filled.length === 0 && fields.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('panel.none')}
            </Typography>
          )}
          {filled.map((f) => (
            <Box key={f.id} sx={{ mb: 1 }}>
              <Typography variant="caption" color="text.secondary">
                {f.name}
              </Typography>
              <Typography variant="body2">{shown(f, values[f.key]!, [t('panel.yes'), t('panel.no')])}</Typography>
            </Box>
          ))}
          {fields.length > 0 && (
            <Button
              size="small"
              onClick={() => setDraft(Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? ''])))}
            >
              {t('panel.edit')}
            </Button>
          )}
        </>
      )}
      {otherInfo.length > 0 && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="subtitle2" gutterBottom>
            {t('panel.otherInfo')}
          </Typography>
          {otherInfo.map((info, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: extra info pairs have no id and may repeat; this read-only list is never reordered
            <Box key={i} sx={{ mb: 1 }}>
              <Typography variant="caption" color="text.secondary">
                {info.name}
              </Typography>
              <Typography variant="body2">{info.value}</Typography>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
