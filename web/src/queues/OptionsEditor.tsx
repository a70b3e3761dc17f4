import { useEffect, useState } from 'react';
import { Box, Button, Chip, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SaveIcon from '@mui/icons-material/Save';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import UpIcon from '@mui/icons-material/ArrowUpward';
import DownIcon from '@mui/icons-material/ArrowDownward';
import SubdirectoryIcon from '@mui/icons-material/SubdirectoryArrowRight';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { notify } from '../components/toast';
import {
  addOption,
  buildTree,
  moveOption,
  optionPath,
  removeOption,
  updateOption,
  type ApiOption,
  type OptionNode,
  type Renumbered,
} from './option-tree';

/**
 * The queue's chatbot menu as a nested tree (management.md "Queues"): add, edit, reorder and delete
 * options at any depth. Each option is saved on its own (`POST`/`PUT /queue-options`); a move or a
 * delete saves the siblings' new positions.
 */
export function OptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation('queues');
  const confirm = useConfirm();
  const [tree, setTree] = useState<OptionNode[]>([]);
  const [saving, setSaving] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    api
      .get<ApiOption[]>('/queue-options', { queueId, parentId: -1 })
      .then((list) => !cancelled && setTree(buildTree(Array.isArray(list) ? list : [])))
      .catch(toastError);
    return () => {
      cancelled = true;
    };
  }, [queueId]);

  const savePositions = async (changed: Renumbered[]) => {
    try {
      await Promise.all(changed.map((c) => api.put(`/queue-options/${c.id}`, { option: c.option })));
    } catch (err) {
      toastError(err);
    }
  };

  const save = async (node: OptionNode) => {
    setSaving(node.key);
    try {
      if (node.id === undefined) {
        const created = await api.post<{ id: number }>('/queue-options', {
          queueId,
          parentId: node.parentId ?? -1,
          title: node.title,
          message: node.message,
          option: node.option,
        });
        setTree((tr) => updateOption(tr, node.key, { id: created.id }));
      } else {
        await api.put(`/queue-options/${node.id}`, { title: node.title, message: node.message, option: node.option });
      }
      notify.success(t('options.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(null);
    }
  };

  const remove = async (node: OptionNode) => {
    const path = optionPath(tree, node.key);
    if (node.id !== undefined && !(await confirm({ message: t('options.confirmDelete', { path }) }))) return;
    try {
      if (node.id !== undefined) await api.delete(`/queue-options/${node.id}`);
      const r = removeOption(tree, node.key);
      setTree(r.tree);
      await savePositions(r.changed);
    } catch (err) {
      toastError(err);
    }
  };

  const move = async (node: OptionNode, direction: -1 | 1) => {
    const r = moveOption(tree, node.key, direction);
    setTree(r.tree);
    await savePositions(r.changed);
  };

  const renderLevel = (nodes: OptionNode[], depth: number) =>
    nodes.map((node, index) => {
      const path = optionPath(tree, node.key);
      return (
        <Box key={node.key} sx={{ ml: depth * 3, mt: 1.5 }} data-option-path={path}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            {depth > 0 && <SubdirectoryIcon fontSize="small" sx={{ mt: 1, color: 'text.secondary' }} />}
            <Chip
              label={path}
              size="small"
              color={node.id === undefined ? 'default' : 'primary'}
              sx={{ mt: 0.75, minWidth: 40 }}
            />
            <Stack spacing={1} sx={{ flex: 1 }}>
              <TextField
                size="small"
                label={t('options.title', { path })}
                value={node.title}
                onChange={(e) => setTree((tr) => updateOption(tr, node.key, { title: e.target.value }))}
                fullWidth
              />
              <TextField
                size="small"
                label={t('options.message', { path })}
                value={node.message}
                onChange={(e) => setTree((tr) => updateOption(tr, node.key, { message: e.target.value }))}
                multiline
                minRows={1}
                maxRows={4}
                fullWidth
              />
            </Stack>
            <Stack direction="row" sx={{ flexShrink: 0 }}>
              <Tooltip title={t('options.save', { path })}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('options.save', { path })}
                    onClick={() => void save(node)}
                    disabled={saving === node.key}
                    color={node.id === undefined ? 'warning' : 'default'}
                  >
                    <SaveIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t('options.addChild', { path })}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('options.addChild', { path })}
                    onClick={() => setTree((tr) => addOption(tr, node.key).tree)}
                    disabled={node.id === undefined}
                  >
                    <AddIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <IconButton size="small" aria-label={t('options.delete', { path })} onClick={() => void remove(node)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('options.up', { path })}
                onClick={() => void move(node, -1)}
                disabled={index === 0}
              >
                <UpIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('options.down', { path })}
                onClick={() => void move(node, 1)}
                disabled={index === nodes.length - 1}
              >
                <DownIcon fontSize="small" />
              </IconButton>
            </Stack>
          </Stack>
          {renderLevel(node.children, depth + 1)}
        </Box>
      );
    });

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle1">{t('modal.optionsTitle')}</Typography>
        <Button size="small" startIcon={<AddIcon />} onClick={() => setTree((tr) => addOption(tr, null).tree)}>
          {t('options.add')}
        </Button>
      </Stack>
      {tree.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('options.empty')}
        </Typography>
      )}
      {renderLevel(tree, 0)}
    </Box>
  );
}
