import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditRow } from '#shared/schemas/audit';
import { useApi, type QueryParams } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { PageFrame } from '../components/PageFrame';
import { usePagedList } from '../lib/usePagedList';
import { formatActor, formatAuditTime, formatTarget, summarizeChanges } from './audit-format';

interface Option {
  id: number;
  name: string;
}

const ALL = '';
/** The super user's choice of company: every company's trail, or one. */
const EVERY_COMPANY = 'all';

/**
 * The audit trail (admins: their company's; the super user: every company's by day range, or one
 * company's): newest first, filtered by action, user and São Paulo days, more rows on scroll or by
 * the button.
 */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const { user } = useAuth();
  const isSuper = Boolean(user?.super);
  const [action, setAction] = useState(ALL);
  const [actorId, setActorId] = useState(ALL);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [company, setCompany] = useState(EVERY_COMPANY);

  const viewedCompany = isSuper ? (company === EVERY_COMPANY ? null : Number(company)) : (user?.companyId ?? null);
  const query = useMemo<QueryParams>(
    () => ({ action, actorId, from, to, companyId: isSuper && viewedCompany ? viewedCompany : undefined }),
    [action, actorId, from, to, isSuper, viewedCompany],
  );
  const entries = usePagedList<AuditRow>(user ? '/audit' : null, 'entries', query);
  useEffect(() => {
    if (entries.error) toastError(entries.error);
  }, [entries.error]);

  const { data: companies } = useApi<Option[]>(isSuper ? '/companies/list' : null);
  const ownCompany = viewedCompany !== null && viewedCompany === user?.companyId;
  const { data: users } = useApi<Option[]>(ownCompany ? '/users/list' : null);
  // another company's users are not listed to the super user: the actors already seen are offered
  const userOptions = useMemo(() => {
    if (viewedCompany === null) return [];
    if (ownCompany) return (users ?? []).map((u) => ({ id: u.id, name: u.name }));
    const seen = new Map<number, string>();
    for (const e of entries.items) if (e.actorId) seen.set(e.actorId, e.actorName ?? `#${e.actorId}`);
    return [...seen].map(([id, name]) => ({ id, name }));
  }, [viewedCompany, ownCompany, users, entries.items]);
  const companyName = useMemo(() => new Map((companies ?? []).map((c) => [c.id, c.name])), [companies]);
  const showCompany = isSuper && viewedCompany === null;
  const filtered = Boolean(action || actorId || from || to || (isSuper && company !== EVERY_COMPANY));

  const clear = () => {
    setAction(ALL);
    setActorId(ALL);
    setFrom('');
    setTo('');
    setCompany(EVERY_COMPANY);
  };

  return (
    <PageFrame title={t('title')} onScroll={entries.onScroll}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', px: 2, pt: 2 }}>
        {isSuper && (
          <TextField
            select
            size="small"
            label={t('filters.company')}
            value={company}
            onChange={(e) => {
              setCompany(e.target.value);
              setActorId(ALL);
            }}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value={EVERY_COMPANY}>{t('filters.allCompanies')}</MenuItem>
            {(companies ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          select
          size="small"
          label={t('filters.action')}
          value={action}
          onChange={(e) => setAction(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value={ALL}>{t('filters.allActions')}</MenuItem>
          {AUDIT_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {t(`actions.${a}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('filters.user')}
          value={actorId}
          onChange={(e) => setActorId(e.target.value)}
          disabled={viewedCompany === null}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value={ALL}>{t('filters.allUsers')}</MenuItem>
          {userOptions.map((u) => (
            <MenuItem key={u.id} value={String(u.id)}>
              {u.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          size="small"
          label={t('filters.from')}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: to || undefined } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('filters.to')}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: from || undefined } }}
        />
        <Button onClick={clear} disabled={!filtered}>
          {t('filters.clear')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
        {t('intro')}
      </Typography>
      {showCompany && (
        <Alert severity="info" sx={{ mx: 2, mt: 1 }}>
          {t('filters.rangeHint')}
        </Alert>
      )}
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.time')}</TableCell>
            {showCompany && <TableCell>{t('columns.company')}</TableCell>}
            <TableCell>{t('columns.user')}</TableCell>
            <TableCell>{t('columns.action')}</TableCell>
            <TableCell>{t('columns.target')}</TableCell>
            <TableCell>{t('columns.address')}</TableCell>
            <TableCell>{t('columns.changes')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.items.map((e) => (
            <TableRow key={e.id} hover data-action={e.action}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatAuditTime(e.at)}</TableCell>
              {showCompany && <TableCell>{companyName.get(e.companyId) ?? `#${e.companyId}`}</TableCell>}
              <TableCell>{formatActor(e, t)}</TableCell>
              <TableCell>{t(`actions.${e.action}`, { defaultValue: e.action })}</TableCell>
              <TableCell>{formatTarget(e.target, t)}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>{e.address ?? '—'}</TableCell>
              <TableCell sx={{ maxWidth: 420 }}>
                {summarizeChanges(e.changes, t).map((line) => (
                  <Typography key={line} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {line}
                  </Typography>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {entries.isLoading && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <CircularProgress size={24} />
        </Box>
      )}
      {!entries.isLoading && entries.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      {entries.hasMore && (
        <Box sx={{ p: 2, textAlign: 'center' }}>
          <Button variant="outlined" onClick={entries.loadMore}>
            {t('loadMore')}
          </Button>
        </Box>
      )}
    </PageFrame>
  );
}
