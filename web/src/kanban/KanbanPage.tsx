import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { Box, Button, Card, CardActions, CardContent, Chip, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Tag as FullTag } from '#shared/schemas/tags';
import { can } from '#shared/permissions';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useAuth } from '../auth/AuthProvider';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { textOn } from '../queues/palette';
import type { Ticket } from '../tickets/types';
import { groupByLane, laneOf, laneOfTag, movedTags, tagIdOfLane, UNTAGGED_LANE, type LaneId } from './board';
import { shownNumber } from '../contacts/contact-number';

type Board = { tickets: Ticket[]; hasMore?: boolean };

/**
 * The kanban board (management.md "Kanban"): a lane for tickets without a kanban tag and one per
 * kanban tag. Dropping a card on another lane swaps its lane tag at once and rolls back on failure.
 */
export default function KanbanPage() {
  const { t } = useTranslation('kanban');
  const { user } = useAuth();
  const isAdmin = can(user?.profile, 'drawer-admin-items:view');
  const query = isAdmin ? { showAll: 'true' } : { queueIds: (user?.queues ?? []).map((q) => q.id) };
  const { data: laneData, mutate: reloadLanes } = useApi<{ lista: FullTag[] }>('/tags/kanban');
  const { data, mutate } = useApi<Board>('/ticket/kanban', query);
  const lanes = laneData?.lista ?? [];
  const laneIds = useMemo(() => lanes.map((l) => l.id), [lanes]);
  const grouped = useMemo(() => groupByLane(data?.tickets ?? [], laneIds), [data, laneIds]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor),
  );

  // live: a ticket or a tag changed somewhere (another board, the ticket screen)
  useRealtimeEvent('ticket', () => void mutate());
  useRealtimeEvent('tag', () => {
    void reloadLanes();
    void mutate();
  });

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || !data) return;
    const ticket = data.tickets.find((tk) => tk.id === active.id);
    const target = over.id as LaneId;
    if (!ticket || laneOf(ticket, laneIds) === target) return;
    const targetTagId = tagIdOfLane(target);
    const tags = movedTags(ticket, laneIds, lanes.find((l) => l.id === targetTagId) ?? null);
    const before = data;
    await mutate(
      { ...data, tickets: data.tickets.map((tk) => (tk.id === ticket.id ? { ...tk, tags } : tk)) },
      {
        revalidate: false,
      },
    );
    try {
      await api.post('/tags/sync', { ticketId: ticket.id, tags: tags.map((tg) => tg.id) });
    } catch (err) {
      // kanban failures are only logged (management.md 8): the card goes back to its lane
      console.error(err);
      await mutate(before, { revalidate: false });
    }
  };

  const laneList: { id: LaneId; name: string; color?: string }[] = [
    { id: UNTAGGED_LANE, name: t('untagged') },
    ...lanes.map((l) => ({ id: laneOfTag(l.id), name: l.name, color: l.color })),
  ];

  return (
    <Box sx={{ p: 2, height: '100%', minHeight: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="h5" component="h1">
        {t('title')}
      </Typography>
      <DndContext sensors={sensors} onDragEnd={(e) => void onDragEnd(e)}>
        <Stack direction="row" spacing={2} sx={{ flex: 1, minHeight: 0, overflowX: 'auto', pb: 1 }}>
          {laneList.map((lane) => (
            <Lane key={lane.id} id={lane.id} name={lane.name} color={lane.color} tickets={grouped.get(lane.id) ?? []} />
          ))}
        </Stack>
      </DndContext>
    </Box>
  );
}

function Lane({ id, name, color, tickets }: { id: LaneId; name: string; color?: string; tickets: Ticket[] }) {
  const { t } = useTranslation('kanban');
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      role="region"
      aria-label={name}
      sx={{
        width: 280,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        bgcolor: isOver ? 'action.hover' : 'background.default',
      }}
    >
      <Box sx={{ p: 1, borderBottom: 1, borderColor: 'divider', display: 'flex', gap: 1, alignItems: 'center' }}>
        {color ? (
          <Chip size="small" label={name} sx={{ bgcolor: color, color: (th) => textOn(th, color) }} />
        ) : (
          <Typography variant="subtitle2">{name}</Typography>
        )}
        <Typography variant="caption" color="text.secondary">
          {tickets.length}
        </Typography>
      </Box>
      <Stack spacing={1} sx={{ p: 1, overflowY: 'auto', flex: 1 }}>
        {tickets.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 2 }}>
            {t('empty')}
          </Typography>
        )}
        {tickets.map((ticket) => (
          <TicketCard key={ticket.id} ticket={ticket} />
        ))}
      </Stack>
    </Paper>
  );
}

function TicketCard({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: ticket.id });
  const name = ticket.contact?.name ?? '';
  return (
    <Card
      ref={setNodeRef}
      variant="outlined"
      aria-label={t('card', { id: ticket.id, name })}
      {...attributes}
      {...listeners}
      sx={{
        borderLeft: 6,
        borderLeftColor: ticket.queue?.color ?? 'grey.400',
        cursor: 'grab',
        touchAction: 'none',
        opacity: isDragging ? 0.7 : 1,
        zIndex: isDragging ? 10 : undefined,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
      }}
    >
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="subtitle2" noWrap>
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {shownNumber(ticket.contact?.number, t)}
        </Typography>
        <Typography variant="body2" noWrap>
          {ticket.lastMessage ?? ''}
        </Typography>
      </CardContent>
      <CardActions>
        <Button
          size="small"
          onPointerDown={(e) => e.stopPropagation()}
          onClick={() => void navigate(`/tickets/${ticket.uuid}`)}
        >
          {t('seeTicket')}
        </Button>
      </CardActions>
    </Card>
  );
}
