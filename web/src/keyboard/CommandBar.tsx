import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import { Command } from 'cmdk';
import { Box, Typography, type Theme } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useAuth } from '../auth/AuthProvider';
import { MENU_ICONS } from '../layout/menu-icons';
import { menuContextOf, visibleMenu } from '../layout/menu';
import { useDebouncedValue } from '../lib/debounce';
import { asList } from '../realtime/cache';
import type { QuickReply } from '../messages/composer-rules';
import type { Ticket } from '../tickets/types';
import { commands } from './commands';
import { Keys, platformKeys } from './Keys';
import { listMacros, runMacro } from './macros';
import { macroKeys, SHORTCUTS, type ShortcutId } from './shortcuts';
import { ticketQuery } from './ticket-query';

// alt+1..9 load the macros with the bar's code, not as a chunk of their own (the ticket page's weight)
export { runMacroByShortcut } from './macros';

const SEARCH_MS = 300;
const MAX_TICKETS = 8;

interface Props {
  open: boolean;
  onClose(): void;
  /** shows the shortcuts' help in its place */
  onHelp(): void;
}

/**
 * The command bar (issue 40 item 5, Ctrl/Cmd-K): cmdk's dialog, combobox and list of options. It
 * jumps to the pages the side menu lists, to tickets by number or contact (the tickets search the
 * list uses), inserts quick replies into the open ticket's composer and runs macros on it.
 *
 * cmdk's own dialog rather than MUI's: MUI's Dialog here reshuffled the shared chunks and cost the
 * ticket page's first download 1.5 KB (tests/e2e/bundle-size.test.ts). Its portal renders into a
 * box of ours that carries the theme's styles. On closing, the focus goes back where it was, then
 * the chosen command runs.
 */
export default function CommandBar({ open, onClose, onHelp }: Props) {
  const { t } = useTranslation('keyboard');
  const [container, setContainer] = useState<HTMLElement | null>(null);
  const returnTo = useRef<Element | null>(null);
  const after = useRef<(() => void) | null>(null);
  // the option chosen (cmdk's value): the first ticket found, once found
  const [selected, setSelected] = useState('');
  if (open && !returnTo.current) returnTo.current = document.activeElement;
  useEffect(() => {
    if (open) return;
    const focused = returnTo.current;
    const action = after.current;
    returnTo.current = null;
    after.current = null;
    // after cmdk's dialog has unmounted: the focus first, so the command may move it on
    if (focused instanceof HTMLElement && focused.isConnected) focused.focus();
    action?.();
  }, [open]);
  return (
    <Box ref={setContainer} sx={paletteStyles}>
      {container && (
        <Command.Dialog
          open={open}
          onOpenChange={(next) => {
            if (!next) onClose();
          }}
          container={container}
          label={t('title')}
          value={selected}
          onValueChange={setSelected}
          loop
        >
          <Palette
            onSelect={setSelected}
            onRun={(action) => {
              after.current = action;
              onClose();
            }}
            onHelp={onHelp}
          />
        </Command.Dialog>
      )}
    </Box>
  );
}

const paletteStyles = (theme: Theme) => ({
  '[cmdk-overlay]': { position: 'fixed', inset: 0, bgcolor: 'rgba(0, 0, 0, 0.5)', zIndex: theme.zIndex.modal },
  '[cmdk-dialog]': {
    position: 'fixed',
    top: { xs: 16, sm: 80 },
    left: '50%',
    transform: 'translateX(-50%)',
    width: 'min(600px, calc(100vw - 32px))',
    bgcolor: 'background.paper',
    backgroundImage: 'var(--Paper-overlay)',
    color: 'text.primary',
    borderRadius: 1,
    boxShadow: theme.shadows[24],
    overflow: 'hidden',
    zIndex: theme.zIndex.modal,
  },
  '[cmdk-input]': {
    width: '100%',
    border: 0,
    outline: 0,
    font: 'inherit',
    fontSize: 17,
    py: 2,
    pl: 6,
    pr: 2,
    color: 'text.primary',
    bgcolor: 'transparent',
    borderBottom: 1,
    borderColor: 'divider',
  },
  '[cmdk-list]': { maxHeight: 'min(420px, 60vh)', overflowY: 'auto', py: 1 },
  '[cmdk-group-heading]': { ...theme.typography.overline, color: 'text.secondary', px: 2, pt: 1 },
  '[cmdk-item]': {
    display: 'flex',
    alignItems: 'center',
    gap: 1.5,
    mx: 1,
    px: 1.5,
    py: 1,
    borderRadius: 1,
    cursor: 'pointer',
    '& svg': { color: 'text.secondary' },
  },
  '[cmdk-item][data-selected="true"]': { bgcolor: 'action.selected' },
  '[cmdk-empty], [cmdk-loading]': { px: 2, py: 2, color: 'text.secondary' },
});

/** The tickets whose number or contact the text names: `#123` / `123` by number, else the list's search. */
function useTicketSearch(text: string) {
  const term = useDebouncedValue(text.trim(), SEARCH_MS);
  const [found, setFound] = useState<{ term: string; tickets: Ticket[] }>({ term: '', tickets: [] });
  useEffect(() => {
    const { number, search } = ticketQuery(term);
    if (number === null && search === null) return setFound({ term, tickets: [] });
    let cancelled = false;
    void Promise.all([
      number !== null ? api.get<Ticket>(`/tickets/${number}`).catch(() => null) : null,
      search !== null
        ? api
            .get('/tickets', { searchParam: search, limit: MAX_TICKETS })
            .then((data) => asList<Ticket>(data, 'tickets'))
            .catch(() => [] as Ticket[])
        : [],
    ]).then(([byNumber, bySearch]) => {
      if (cancelled) return;
      const tickets = [...(byNumber ? [byNumber] : []), ...bySearch.filter((tk) => tk.id !== byNumber?.id)];
      setFound({ term, tickets: tickets.slice(0, MAX_TICKETS) });
    });
    return () => {
      cancelled = true;
    };
  }, [term]);
  const { number, search } = ticketQuery(text.trim());
  const asked = number !== null || search !== null;
  return { tickets: asked ? found.tickets : [], searching: asked && found.term !== text.trim() };
}

function Palette({
  onRun,
  onHelp,
  onSelect,
}: {
  onRun(action: () => void): void;
  onHelp(): void;
  onSelect(value: string): void;
}) {
  const { t } = useTranslation(['keyboard', 'common']);
  const navigate = useNavigate();
  const auth = useAuth();
  const [text, setText] = useState('');
  // what the page on screen offers, as it was when the bar opened (the bar is modal)
  const [{ ticket, composer, list }] = useState(commands);
  const pages = useMemo(() => visibleMenu(menuContextOf(auth)), [auth]);
  const { tickets, searching } = useTicketSearch(text);
  const { data: quickData } = useApi<unknown>(
    composer ? '/quick-messages/list' : null,
    { userId: auth.user?.id },
    { dedupingInterval: 0 },
  );
  const quickReplies = asList<QuickReply>(quickData, 'records', 'quickMessages');
  const { data: macros } = useSWR(ticket ? ['/macros', 'command-bar'] : null, listMacros, {
    dedupingInterval: 0,
  });

  // tickets found come first, the first of them chosen
  const firstTicket = tickets[0]?.id;
  useEffect(() => {
    if (firstTicket !== undefined) onSelect(`ticket-${firstTicket}`);
  }, [firstTicket, onSelect]);

  const hint = (id: ShortcutId) => platformKeys(SHORTCUTS.find((s) => s.id === id)?.keys ?? [])[0];
  const action = (id: ShortcutId, run: (() => void) | undefined) =>
    run && (
      <Item key={id} value={t(`actions.${id}`)} shortcut={hint(id)} onSelect={() => onRun(run)}>
        {t(`actions.${id}`)}
      </Item>
    );
  const ticketActions = [
    action('accept', ticket?.accept && (() => commands().ticket?.accept?.())),
    action('resolve', ticket?.resolve && (() => commands().ticket?.resolve?.())),
    action('transfer', ticket?.transfer && (() => commands().ticket?.transfer?.())),
    action('focusComposer', composer && (() => commands().composer?.focus())),
    action('nextTicket', list && (() => commands().list?.step(1))),
    action('previousTicket', list && (() => commands().list?.step(-1))),
  ].filter(Boolean);

  return (
    <>
      <Box sx={{ position: 'relative' }}>
        <SearchIcon sx={{ position: 'absolute', left: 16, top: 18, color: 'text.secondary' }} />
        <Command.Input value={text} onValueChange={setText} placeholder={t('placeholder')} autoFocus />
      </Box>
      <Command.List label={t('results')}>
        {searching && <Command.Loading label={t('searching')}>{t('searching')}</Command.Loading>}
        {!searching && tickets.length === 0 && <Command.Empty>{t('empty')}</Command.Empty>}
        {tickets.length > 0 && (
          <Command.Group heading={t('groups.tickets')} forceMount>
            {tickets.map((tk) => (
              <Item
                key={tk.id}
                value={`ticket-${tk.id}`}
                forceMount
                onSelect={() => onRun(() => void navigate(`/tickets/${tk.uuid}`))}
                detail={`${t('ticketNumber', { id: tk.id })} · ${t(`status.${tk.status}`, { defaultValue: tk.status })}`}
              >
                {tk.contact?.name ?? t('ticketNumber', { id: tk.id })}
              </Item>
            ))}
          </Command.Group>
        )}
        {ticketActions.length > 0 && <Command.Group heading={t('groups.ticket')}>{ticketActions}</Command.Group>}
        {composer && quickReplies.length > 0 && (
          <Command.Group heading={t('groups.quickMessages')}>
            {quickReplies.map((q) => (
              <Item
                key={q.id ?? q.shortcode}
                value={`/${q.shortcode} ${q.message}`}
                onSelect={() => onRun(() => commands().composer?.insertQuickMessage(q))}
                detail={q.message}
              >
                {`/${q.shortcode}`}
              </Item>
            ))}
          </Command.Group>
        )}
        {ticket && macros && macros.length > 0 && (
          <Command.Group heading={t('groups.macros')}>
            {macros.map((m) => (
              <Item
                key={m.id}
                value={`macro-${m.id} ${m.name}`}
                shortcut={m.shortcut ? macroKeys(m.shortcut) : undefined}
                onSelect={() => onRun(() => void runMacro(m, ticket.id))}
              >
                {m.name}
              </Item>
            ))}
          </Command.Group>
        )}
        <Command.Group heading={t('groups.pages')}>
          {pages.map((p) => {
            const Icon = MENU_ICONS[p.key];
            const label = t(`common:menu.${p.key}`);
            return (
              <Item
                key={p.key}
                value={label}
                keywords={[p.to]}
                icon={Icon && <Icon fontSize="small" />}
                onSelect={() => onRun(() => void navigate(p.to))}
              >
                {label}
              </Item>
            );
          })}
        </Command.Group>
        <Command.Group heading={t('groups.help')}>
          <Item
            value={t('actions.help')}
            icon={<KeyboardIcon fontSize="small" />}
            shortcut="?"
            onSelect={() => onRun(onHelp)}
          >
            {t('actions.help')}
          </Item>
        </Command.Group>
      </Command.List>
    </>
  );
}

/** One option: its text, an optional detail line, and its shortcut as key caps. */
function Item({
  value,
  keywords,
  forceMount,
  icon,
  detail,
  shortcut,
  onSelect,
  children,
}: {
  value: string;
  keywords?: string[];
  forceMount?: boolean;
  icon?: ReactNode;
  detail?: string;
  shortcut?: string;
  onSelect(): void;
  children: ReactNode;
}) {
  return (
    <Command.Item
      value={value}
      keywords={keywords}
      forceMount={forceMount}
      onSelect={onSelect}
      aria-keyshortcuts={shortcut}
    >
      {icon}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography noWrap>{children}</Typography>
        {detail && (
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {detail}
          </Typography>
        )}
      </Box>
      {shortcut && (
        <Box component="span" aria-hidden>
          <Keys combo={shortcut} />
        </Box>
      )}
    </Command.Item>
  );
}
