import { Fragment } from 'react';
import useSWR from 'swr';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Keys, platformKeys } from './Keys';
import { listMacros } from './macros';
import { macroKeys, SHORTCUTS, type ShortcutId } from './shortcuts';

const SECTIONS: { title: 'everywhere' | 'ticketPage'; ids: ShortcutId[] }[] = [
  { title: 'everywhere', ids: ['commandBar', 'help'] },
  {
    title: 'ticketPage',
    ids: ['nextTicket', 'previousTicket', 'accept', 'resolve', 'transfer', 'focusComposer'],
  },
];

/** The keyboard shortcuts' help (issue 40 item 5): opened by `?`, from the command bar and the user menu. */
export default function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('keyboard');
  const { data: macros } = useSWR(open ? ['/macros', 'shortcuts-help'] : null, listMacros);
  const withShortcut = (macros ?? []).filter((m) => m.shortcut);

  const table = (title: string, rows: { action: string; keys: string[] }[]) => (
    <Box component="section" aria-label={title} sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell scope="col">{t('help.action')}</TableCell>
            <TableCell scope="col" sx={{ width: '45%' }}>
              {t('help.keys')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two macros may bear one name
            <TableRow key={i}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 400 }}>
                {row.action}
              </TableCell>
              <TableCell>
                {row.keys.map((combo, k) => (
                  <Fragment key={combo}>
                    {k > 0 && (
                      <Typography component="span" variant="body2" color="text.secondary" sx={{ mx: 1 }}>
                        {t('help.or')}
                      </Typography>
                    )}
                    <Keys combo={combo} />
                  </Fragment>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" scroll="paper">
      <DialogTitle>{t('help.title')}</DialogTitle>
      <DialogContent dividers>
        {SECTIONS.map((section) => (
          <Fragment key={section.title}>
            {table(
              t(`help.${section.title}`),
              section.ids.map((id) => ({
                action: t(`actions.${id}`),
                keys: platformKeys(SHORTCUTS.find((s) => s.id === id)?.keys ?? []),
              })),
            )}
          </Fragment>
        ))}
        {withShortcut.length > 0 &&
          table(
            t('help.macros'),
            withShortcut.map((m) => ({ action: m.name, keys: [macroKeys(m.shortcut as string)] })),
          )}
        <Typography variant="body2" color="text.secondary">
          {t('help.hint')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('help.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
