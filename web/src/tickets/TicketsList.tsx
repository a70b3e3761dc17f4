import { useEffect, useRef } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import { NEXT_PAGE_BOTTOM_PX } from '#shared/constants';
import type { ListFilter } from './membership';
import { useTicketList } from './useTicketList';
import { TicketListItem } from './TicketListItem';
import type { Ticket } from './types';
import { useProvideCommands } from '../keyboard/commands';
import { stepTicket } from './list-step';

interface Props {
  filter: ListFilter;
  visible: boolean;
  selectedUuid?: string;
  canPeek: boolean;
  onCount?(count: number): void;
  onOpen(ticket: Ticket): void;
  onAccept(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
}

/** A virtualized ticket list (thousands of rows scroll smoothly); next page 100 px from the bottom. */
export function TicketsList({ filter, visible, selectedUuid, canPeek, onCount, onOpen, onAccept, onPeek }: Props) {
  const { t } = useTranslation('tickets');
  const { tickets, count, hasMore, loadMore, isLoading } = useTicketList(filter);
  useEffect(() => onCount?.(count), [count, onCount]);
  const virtuoso = useRef<VirtuosoHandle>(null);
  // next/previous ticket (issue 40 item 5): the list shown opens its neighbour as a click would
  useProvideCommands(
    'list',
    visible
      ? {
          step: (by) => {
            const next = stepTicket(tickets, selectedUuid, by);
            if (!next) return by === 1 ? loadMore() : undefined;
            virtuoso.current?.scrollIntoView({ index: tickets.indexOf(next) });
            onOpen(next);
          },
        }
      : null,
  );
  if (!visible) return null;
  if (isLoading) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 3 }}>
        <CircularProgress size={28} aria-label={t('manager.loadMore')} />
      </Box>
    );
  }
  if (tickets.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
        {t('manager.empty')}
      </Typography>
    );
  }
  return (
    <Box
      role="list"
      aria-label={t(`tabs.${filter.tab === 'open' ? 'assigned' : filter.tab}`)}
      sx={{ flex: 1, minHeight: 0 }}
    >
      <Virtuoso
        ref={virtuoso}
        style={{ height: '100%' }}
        data={tickets}
        computeItemKey={(_, tk) => tk.id}
        endReached={() => hasMore && loadMore()}
        increaseViewportBy={NEXT_PAGE_BOTTOM_PX}
        itemContent={(_, tk) => (
          // biome-ignore lint/a11y/useSemanticElements: Virtuoso wraps each row in its own divs, so an <li> would not sit in a list element; the roles carry the semantics (e2e tests select rows by role)
          <div role="listitem">
            <TicketListItem
              ticket={tk}
              selected={tk.uuid === selectedUuid}
              canPeek={canPeek}
              onOpen={onOpen}
              onAccept={onAccept}
              onPeek={onPeek}
            />
          </div>
        )}
      />
    </Box>
  );
}
