import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';

/**
 * The record an edit dialog shows, loaded each time the dialog opens (`path` null: a new record,
 * nothing to load). Answers whether it is still loading: the dialog shows its fields once it is in
 * (`RecordFields`), since what was typed into them before was overwritten by its arrival.
 */
export function useEditedRecord<T>(open: boolean, path: string | null, onLoad: (record: T) => void): boolean {
  const [loading, setLoading] = useState(false);
  const onLoadRef = useRef(onLoad);
  onLoadRef.current = onLoad;
  useEffect(() => {
    if (!open || !path) {
      setLoading(false);
      return;
    }
    let current = true;
    setLoading(true);
    api
      .get<T>(path)
      .then((record) => current && onLoadRef.current(record), toastError)
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [open, path]);
  return loading;
}

/** A dialog's fields, or a spinner while the record they edit loads. */
export function RecordFields({ loading, children }: { loading: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  if (!loading) return children;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label={t('common:buttons.loading')} />
    </Box>
  );
}
