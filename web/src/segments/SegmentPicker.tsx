import { useState } from 'react';
import { Button, MenuItem, TextField } from '@mui/material';
import SegmentIcon from '@mui/icons-material/FilterAlt';
import { useTranslation } from 'react-i18next';
import { SegmentsDialog } from './SegmentsDialog';
import { useSegments } from './useSegments';

/**
 * The contacts page's segment choice (all contacts, or one segment's), and for admins the button that
 * opens the segments' editor.
 */
export function SegmentPicker({
  value,
  onChange,
  admin,
}: {
  value: number | null;
  onChange(segmentId: number | null): void;
  admin: boolean;
}) {
  const { t } = useTranslation('segments');
  const { segments } = useSegments();
  const [editing, setEditing] = useState(false);
  return (
    <>
      {segments.length > 0 && (
        <TextField
          select
          size="small"
          sx={{ minWidth: 160 }}
          label={t('picker')}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        >
          <MenuItem value="">
            <em>{t('all')}</em>
          </MenuItem>
          {segments.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {admin && (
        <Button variant="outlined" startIcon={<SegmentIcon />} onClick={() => setEditing(true)}>
          {t('manage')}
        </Button>
      )}
      {editing && <SegmentsDialog open onClose={() => setEditing(false)} />}
    </>
  );
}
