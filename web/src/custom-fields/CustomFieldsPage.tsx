import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM_FIELD_TYPES,
  CustomFieldBody,
  CustomFieldUpdateBody,
  type CustomField,
  type CustomFieldEntity,
  type CustomFieldType,
} from '#shared/schemas/custom-fields';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { PageFrame } from '../components/PageFrame';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { useCustomFields } from './useCustomFields';

interface Form {
  name: string;
  key: string;
  type: CustomFieldType;
  options: string;
  required: boolean;
  order: string;
}
const EMPTY: Form = { name: '', key: '', type: 'text', options: '', required: false, order: '' };

/** Custom fields (issue 40): the admins define the fields of contacts and of tickets, one tab each. */
export default function CustomFieldsPage() {
  const { t } = useTranslation(['customFields', 'common']);
  const [entity, setEntity] = useState<CustomFieldEntity>('contact');
  const { fields, mutate } = useCustomFields(entity);
  const confirmedDelete = useConfirmedDelete();
  const [editing, setEditing] = useState<{ field?: CustomField } | null>(null);

  const remove = (f: CustomField) =>
    confirmedDelete({
      message: t('confirmDelete', { name: f.name }),
      path: `/custom-fields/${f.id}`,
      onDeleted: () => void mutate(),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title')}
      actions={
        <Button variant="contained" onClick={() => setEditing({})}>
          {t('add')}
        </Button>
      }
    >
      <Tabs value={entity} onChange={(_, v) => setEntity(v)} aria-label={t('title')}>
        <Tab value="contact" label={t('entities.contact')} />
        <Tab value="ticket" label={t('entities.ticket')} />
      </Tabs>
      <Table size="small" stickyHeader aria-label={t(`entities.${entity}`)}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell>{t('columns.key')}</TableCell>
            <TableCell>{t('columns.type')}</TableCell>
            <TableCell align="center">{t('columns.required')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {fields.map((f) => (
            <TableRow key={f.id} hover>
              <TableCell>{f.name}</TableCell>
              <TableCell>
                <code>{entity === 'contact' ? `{{contact.${f.key}}}` : f.key}</code>
              </TableCell>
              <TableCell>
                {t(`types.${f.type}`)}
                {f.type === 'list' ? `: ${f.options.join(', ')}` : ''}
              </TableCell>
              <TableCell align="center">{f.required ? '✓' : ''}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: f.name })}
                  onClick={() => setEditing({ field: f })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: f.name })} onClick={() => void remove(f)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {fields.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      {editing && (
        <FieldDialog
          entity={entity}
          field={editing.field}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void mutate();
          }}
        />
      )}
    </PageFrame>
  );
}

function FieldDialog({
  entity,
  field,
  onClose,
  onSaved,
}: {
  entity: CustomFieldEntity;
  field?: CustomField;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation(['customFields', 'common']);
  const [form, setForm] = useState<Form>(
    field
      ? {
          name: field.name,
          key: field.key,
          type: field.type,
          options: field.options.join('\n'),
          required: field.required,
          order: String(field.order),
        }
      : EMPTY,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const options = form.options
      .split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
    const common = {
      name: form.name,
      required: form.required,
      ...(form.order.trim() ? { order: Number(form.order) } : {}),
    };
    const parsed = field
      ? CustomFieldUpdateBody.safeParse({ ...common, ...(field.type === 'list' ? { options } : {}) })
      : CustomFieldBody.safeParse({
          ...common,
          entity,
          type: form.type,
          ...(form.key.trim() ? { key: form.key.trim() } : {}),
          ...(form.type === 'list' ? { options } : {}),
        });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      if (field) await api.put(`/custom-fields/${field.id}`, parsed.data);
      else await api.post('/custom-fields', parsed.data);
      notify.success(t('saved'));
      onSaved();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle>{field ? t('form.titleEdit') : t('form.titleAdd')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('form.name')}
              value={form.name}
              onChange={(e) => set({ name: e.target.value })}
              required
              autoFocus
              size="small"
              {...fieldError('name')}
            />
            <TextField
              label={t('form.key')}
              value={form.key}
              onChange={(e) => set({ key: e.target.value })}
              disabled={Boolean(field)}
              size="small"
              {...fieldError('key')}
              helperText={fieldError('key').helperText ?? t('form.keyHelp')}
            />
            <TextField
              select
              label={t('form.type')}
              value={form.type}
              onChange={(e) => set({ type: e.target.value as CustomFieldType })}
              disabled={Boolean(field)}
              size="small"
            >
              {CUSTOM_FIELD_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            {form.type === 'list' && (
              <TextField
                label={t('form.options')}
                value={form.options}
                onChange={(e) => set({ options: e.target.value })}
                multiline
                minRows={3}
                size="small"
                {...fieldError('options')}
              />
            )}
            <TextField
              label={t('form.order')}
              type="number"
              value={form.order}
              onChange={(e) => set({ order: e.target.value })}
              size="small"
              {...fieldError('order')}
            />
            <FormControlLabel
              control={<Switch checked={form.required} onChange={(e) => set({ required: e.target.checked })} />}
              label={t('form.required')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
