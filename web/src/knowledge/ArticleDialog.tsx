import { useEffect, useState, type FormEvent } from 'react';
import {
  Autocomplete,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormHelperText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useTranslation } from 'react-i18next';
import { KNOWLEDGE_LANGUAGES, type KnowledgeArticle } from '#shared/schemas/knowledge';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { uploadToStorage } from '../files/storage-upload';
import {
  DOCUMENT_ACCEPT,
  articleToForm,
  cleanTags,
  emptyForm,
  fileProblem,
  formBody,
  type KnowledgeForm,
} from './knowledge-form';

/** What the dialog edits: a new article or document (no id), or an existing one. */
export interface ArticleDialogTarget {
  kind: KnowledgeForm['kind'];
  id?: number;
}

const FILE_MESSAGES = { type: 'dialog.fileType', size: 'dialog.fileSize', empty: 'dialog.fileEmpty' } as const;

/**
 * Add or edit an article (title, text, tags, language, status) or a document (the same, with a file
 * instead of the text: uploaded straight to storage with `POST /uploads`, then its key is sent and
 * the server reads its text). A picked file replaces a document's text and passages when saved.
 */
export function ArticleDialog({
  target,
  onClose,
  onSaved,
}: {
  target: ArticleDialogTarget | null;
  onClose(): void;
  onSaved(article: KnowledgeArticle): void;
}) {
  const { t } = useTranslation(['knowledge', 'common']);
  const [form, setForm] = useState<KnowledgeForm>(emptyForm('article'));
  const [stored, setStored] = useState<KnowledgeArticle | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);
  const editing = target?.id !== undefined;
  const isDocument = form.kind === 'document';

  useEffect(() => {
    if (!target) return;
    setErrors({});
    setFile(null);
    setFileError(null);
    setStored(null);
    if (target.id === undefined) return setForm(emptyForm(target.kind));
    api
      .get<KnowledgeArticle>(`/knowledge/${target.id}`)
      .then((a) => {
        setStored(a);
        setForm(articleToForm(a));
      })
      .catch(toastError);
  }, [target]);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const problem = fileProblem(picked);
    setFileError(problem ? t(FILE_MESSAGES[problem]) : null);
    setFile(problem ? null : picked);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (isDocument && !editing && !file) return setFileError(t('dialog.fileRequired'));
    // checked before anything is uploaded, with a stand-in for the file that is not sent yet
    const placeholder = file ? { key: 'pending', fileName: file.name } : undefined;
    const check = formBody(form, { editing, upload: placeholder });
    if (!check.ok) return setErrors(check.errors);
    setErrors({});
    setBusy(true);
    try {
      const upload = file ? { key: (await uploadToStorage(file)).key, fileName: file.name } : undefined;
      const ready = formBody(form, { editing, upload });
      if (!ready.ok) return setErrors(ready.errors);
      const saved = editing
        ? await api.put<KnowledgeArticle>(`/knowledge/${target!.id}`, ready.body)
        : await api.post<KnowledgeArticle>('/knowledge', ready.body);
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const title = editing
    ? t(isDocument ? 'dialog.titleEditDocument' : 'dialog.titleEdit')
    : t(isDocument ? 'dialog.titleAddDocument' : 'dialog.titleAddArticle');

  return (
    <Dialog
      open={target !== null}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="knowledge-dialog-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="knowledge-dialog-title">{title}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('dialog.title')}
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
              {...fieldError('title')}
              required
              autoFocus
              fullWidth
            />
            {isDocument ? (
              <Stack spacing={1}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Button component="label" variant="outlined" startIcon={<AttachFileIcon />} disabled={busy}>
                    {editing ? t('dialog.replaceFile') : t('dialog.pickFile')}
                    <input
                      type="file"
                      hidden
                      accept={DOCUMENT_ACCEPT}
                      aria-label={editing ? t('dialog.replaceFile') : t('dialog.pickFile')}
                      onChange={(e) => {
                        pick(e.target.files?.[0]);
                        e.target.value = '';
                      }}
                    />
                  </Button>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {file?.name ??
                      (stored?.fileName ? t('dialog.currentFile', { name: stored.fileName }) : t('dialog.noFile'))}
                  </Typography>
                </Stack>
                <FormHelperText error={Boolean(fileError)}>{fileError ?? t('dialog.fileTypes')}</FormHelperText>
                {stored && !file && (
                  <TextField
                    label={t('dialog.extracted', { passages: stored.passages })}
                    value={stored.body}
                    multiline
                    minRows={4}
                    maxRows={10}
                    fullWidth
                    slotProps={{ htmlInput: { readOnly: true } }}
                  />
                )}
              </Stack>
            ) : (
              <TextField
                label={t('dialog.body')}
                value={form.body}
                onChange={(e) => setForm({ ...form, body: e.target.value })}
                {...fieldError('body')}
                helperText={fieldError('body').helperText ?? t('dialog.bodyHint')}
                required
                multiline
                minRows={8}
                maxRows={20}
                fullWidth
              />
            )}
            <Autocomplete
              multiple
              freeSolo
              options={[] as string[]}
              value={form.tags}
              onChange={(_, tags) => setForm({ ...form, tags: cleanTags(tags as string[]) })}
              renderValue={(tags, getItemProps) =>
                tags.map((tag, index) => {
                  const { key, ...item } = getItemProps({ index });
                  return <Chip key={key} label={tag} size="small" {...item} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('dialog.tags')}
                  {...fieldError('tags')}
                  helperText={fieldError('tags').helperText ?? t('dialog.tagsHint')}
                />
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('dialog.language')}
                value={form.language}
                onChange={(e) => setForm({ ...form, language: e.target.value as KnowledgeForm['language'] })}
                sx={{ minWidth: 200 }}
              >
                {KNOWLEDGE_LANGUAGES.map((lang) => (
                  <MenuItem key={lang} value={lang}>
                    {t(`languages.${lang}`)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label={t('dialog.status')}
                value={form.status}
                onChange={(e) => setForm({ ...form, status: e.target.value as KnowledgeForm['status'] })}
                helperText={form.status === 'draft' ? t('dialog.draftHint') : ' '}
                sx={{ minWidth: 200 }}
              >
                <MenuItem value="published">{t('status.published')}</MenuItem>
                <MenuItem value="draft">{t('status.draft')}</MenuItem>
              </TextField>
            </Stack>
            {busy && file && (
              <Typography variant="body2" color="text.secondary">
                {t('dialog.uploading')}
              </Typography>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('common:buttons.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? <CircularProgress size={20} /> : t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
