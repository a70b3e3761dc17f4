import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { CustomField } from '#shared/schemas/custom-fields';
import { FIELD_OPS_BY_TYPE, type Segment, type SegmentCondition } from '#shared/schemas/segments';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { notify } from '../components/toast';
import { useCustomFields } from '../custom-fields/useCustomFields';
import { asList } from '../realtime/cache';
import { useSegments } from './useSegments';

interface Named {
  id: number;
  name: string;
}

const blank = (fields: CustomField[]): SegmentCondition =>
  fields[0]
    ? { type: 'field', key: fields[0].key, op: FIELD_OPS_BY_TYPE[fields[0].type][0]!, value: '' }
    : { type: 'name', op: 'contains', value: '' };

/** One condition of the editor: what it asks (tag, field, name, number), then how, then the value. */
function ConditionRow({
  condition,
  fields,
  tags,
  onChange,
  onRemove,
  index,
}: {
  condition: SegmentCondition;
  fields: CustomField[];
  tags: Named[];
  onChange(c: SegmentCondition): void;
  onRemove(): void;
  index: number;
}) {
  const { t } = useTranslation(['segments', 'customFields']);
  const common = { size: 'small' as const, sx: { minWidth: 140 } };
  const field = condition.type === 'field' ? fields.find((f) => f.key === condition.key) : undefined;
  const changeType = (type: SegmentCondition['type']) =>
    onChange(
      type === 'field'
        ? blank(fields)
        : type === 'tag'
          ? { type: 'tag', ids: [] }
          : type === 'number'
            ? { type: 'number', op: 'starts_with', value: '' }
            : { type: 'name', op: 'contains', value: '' },
    );
  return (
    <Stack
      direction="row"
      spacing={1}
      role="group"
      aria-label={t('condition', { n: index + 1 })}
      sx={{ flexWrap: 'wrap', rowGap: 1 }}
    >
      <TextField
        select
        {...common}
        label={t('type')}
        value={condition.type}
        onChange={(e) => changeType(e.target.value as SegmentCondition['type'])}
      >
        {(['field', 'tag', 'name', 'number'] as const)
          .filter((type) => type !== 'field' || fields.length)
          .map((type) => (
            <MenuItem key={type} value={type}>
              {t(`types.${type}`)}
            </MenuItem>
          ))}
      </TextField>
      {condition.type === 'field' && (
        <>
          <TextField
            select
            {...common}
            label={t('field')}
            value={condition.key}
            onChange={(e) => {
              const next = fields.find((f) => f.key === e.target.value)!;
              onChange({ type: 'field', key: next.key, op: FIELD_OPS_BY_TYPE[next.type][0]!, value: '' });
            }}
          >
            {fields.map((f) => (
              <MenuItem key={f.key} value={f.key}>
                {f.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            {...common}
            label={t('op')}
            value={condition.op}
            onChange={(e) => {
              const op = e.target.value as typeof condition.op;
              const valueless = op === 'empty' || op === 'not_empty';
              onChange({ ...condition, op, value: valueless ? undefined : (condition.value ?? '') });
            }}
          >
            {(field ? FIELD_OPS_BY_TYPE[field.type] : []).map((op) => (
              <MenuItem key={op} value={op}>
                {t(`ops.${op}`)}
              </MenuItem>
            ))}
          </TextField>
          {condition.op !== 'empty' && condition.op !== 'not_empty' && field && (
            <FieldValue field={field} value={condition.value} onChange={(value) => onChange({ ...condition, value })} />
          )}
        </>
      )}
      {condition.type === 'tag' && (
        <TextField
          select
          {...common}
          sx={{ minWidth: 220 }}
          label={t('tags')}
          value={condition.ids}
          slotProps={{ select: { multiple: true } }}
          onChange={(e) => onChange({ type: 'tag', ids: (e.target.value as unknown as number[]).map(Number) })}
        >
          {tags.map((tag) => (
            <MenuItem key={tag.id} value={tag.id}>
              {tag.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {condition.type === 'number' && (
        <TextField
          select
          {...common}
          label={t('op')}
          value={condition.op}
          onChange={(e) => onChange({ ...condition, op: e.target.value as 'starts_with' | 'contains' })}
        >
          <MenuItem value="starts_with">{t('ops.starts_with')}</MenuItem>
          <MenuItem value="contains">{t('ops.contains')}</MenuItem>
        </TextField>
      )}
      {(condition.type === 'name' || condition.type === 'number') && (
        <TextField
          {...common}
          label={t('value')}
          value={condition.value}
          onChange={(e) => onChange({ ...condition, value: e.target.value })}
        />
      )}
      <IconButton aria-label={t('removeCondition', { n: index + 1 })} onClick={onRemove}>
        <DeleteIcon />
      </IconButton>
    </Stack>
  );
}

/** A condition's value, suited to its field's type (the server reads it as that type). */
function FieldValue({
  field,
  value,
  onChange,
}: {
  field: CustomField;
  value: string | number | boolean | undefined;
  onChange(value: string | boolean): void;
}) {
  const { t } = useTranslation('segments');
  const common = { size: 'small' as const, sx: { minWidth: 140 }, label: t('value') };
  if (field.type === 'list' || field.type === 'checkbox')
    return (
      <TextField
        select
        {...common}
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(field.type === 'checkbox' ? e.target.value === 'true' : e.target.value)}
      >
        {field.type === 'list'
          ? field.options.map((o) => (
              <MenuItem key={o} value={o}>
                {o}
              </MenuItem>
            ))
          : [
              <MenuItem key="true" value="true">
                {t('yes')}
              </MenuItem>,
              <MenuItem key="false" value="false">
                {t('no')}
              </MenuItem>,
            ]}
      </TextField>
    );
  return (
    <TextField
      {...common}
      type={field.type === 'date' ? 'date' : field.type === 'number' ? 'number' : 'text'}
      value={value === undefined ? '' : String(value)}
      onChange={(e) => onChange(e.target.value)}
      slotProps={field.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
    />
  );
}

/**
 * The admins' editor of contact segments: the list, and a form with a name and its conditions (all
 * must hold). The server checks each condition against the fields and tags.
 */
export function SegmentsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation(['segments', 'common']);
  const { segments, mutate } = useSegments();
  const { fields } = useCustomFields('contact');
  const tags = asList<Named>(useApi<unknown>(open ? '/tags/list' : null).data, 'tags');
  const confirmedDelete = useConfirmedDelete();
  const [form, setForm] = useState<{ id?: number; name: string; conditions: SegmentCondition[] } | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!form) return;
    setBusy(true);
    try {
      const body = { name: form.name, conditions: form.conditions };
      if (form.id) await api.put<Segment>(`/segments/${form.id}`, body);
      else await api.post<Segment>('/segments', body);
      notify.success(t('saved'));
      setForm(null);
      void mutate();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const setCondition = (i: number, c: SegmentCondition | null) =>
    form &&
    setForm({
      ...form,
      conditions: c ? form.conditions.map((x, j) => (j === i ? c : x)) : form.conditions.filter((_, j) => j !== i),
    });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="segments-title">
      <DialogTitle id="segments-title">{form ? t(form.id ? 'titleEdit' : 'titleAdd') : t('title')}</DialogTitle>
      <DialogContent>
        {form ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('name')}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              required
              size="small"
            />
            <Typography variant="subtitle2">{t('conditions')}</Typography>
            {form.conditions.map((c, i) => (
              <ConditionRow
                // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id; a row is its place in the list
                key={i}
                index={i}
                condition={c}
                fields={fields}
                tags={tags}
                onChange={(next) => setCondition(i, next)}
                onRemove={() => setCondition(i, null)}
              />
            ))}
            <div>
              <Button
                startIcon={<AddIcon />}
                onClick={() => setForm({ ...form, conditions: [...form.conditions, blank(fields)] })}
              >
                {t('addCondition')}
              </Button>
            </div>
          </Stack>
        ) : (
          <>
            {segments.length === 0 && <Typography color="text.secondary">{t('empty')}</Typography>}
            <List dense aria-label={t('title')}>
              {segments.map((s) => (
                <ListItem
                  key={s.id}
                  divider
                  secondaryAction={
                    <>
                      <IconButton
                        aria-label={t('edit', { name: s.name })}
                        onClick={() => setForm({ id: s.id, name: s.name, conditions: s.conditions })}
                      >
                        <EditIcon />
                      </IconButton>
                      <IconButton
                        aria-label={t('delete', { name: s.name })}
                        onClick={() =>
                          void confirmedDelete({
                            message: t('confirmDelete', { name: s.name }),
                            path: `/segments/${s.id}`,
                            onDeleted: () => void mutate(),
                            deleted: t('deleted'),
                          })
                        }
                      >
                        <DeleteIcon />
                      </IconButton>
                    </>
                  }
                >
                  <ListItemText primary={s.name} secondary={t('conditionCount', { count: s.conditions.length })} />
                </ListItem>
              ))}
            </List>
          </>
        )}
      </DialogContent>
      <DialogActions>
        {form ? (
          <>
            <Button onClick={() => setForm(null)}>{t('common:buttons.cancel')}</Button>
            <Button variant="contained" disabled={busy || !form.name.trim()} onClick={() => void save()}>
              {t('common:buttons.save')}
            </Button>
          </>
        ) : (
          <>
            <Button startIcon={<AddIcon />} onClick={() => setForm({ name: '', conditions: [blank(fields)] })}>
              {t('add')}
            </Button>
            <Button onClick={onClose}>{t('common:buttons.close')}</Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
