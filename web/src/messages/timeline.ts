import { isValid, parseISO } from 'date-fns';
import { format } from '../lib/format';
import type { Message } from '../tickets/types';

export type TimelineRow =
  | { kind: 'day'; key: string; date: string }
  | { kind: 'ticketChange'; key: string; closedAt: string | null; startedAt: string }
  | { kind: 'message'; key: string; message: Message };

const dayOf = (iso: string) => {
  const d = parseISO(iso);
  return isValid(d) ? format(d, 'yyyy-MM-dd') : '';
};

/**
 * Oldest first, one entry per id (pages may overlap while events arrive). The id is the server's
 * sort key, which keeps arrival order where WhatsApp's whole-second timestamps tie, so a message
 * added by a realtime event sits where a reload puts it.
 */
export function mergeMessages(pages: Message[][]): Message[] {
  const byId = new Map<string, Message>();
  for (const page of pages) for (const m of page) byId.set(String(m.id), { ...byId.get(String(m.id)), ...m });
  return [...byId.values()].sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
}

/**
 * The rows of the message list (attendance.md 2.5): a day separator when the date changes, and a
 * banner with the previous conversation's end and the next one's start when consecutive messages
 * belong to different tickets.
 */
export function buildTimeline(messages: Message[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let previous: Message | null = null;
  for (const m of messages) {
    if (previous && previous.ticketId !== m.ticketId) {
      rows.push({
        kind: 'ticketChange',
        key: `tc-${previous.id}-${m.id}`,
        closedAt: previous.ticket?.closedAt ?? previous.ticket?.updatedAt ?? previous.createdAt,
        startedAt: m.ticket?.createdAt ?? m.createdAt,
      });
    }
    if (!previous || dayOf(previous.createdAt) !== dayOf(m.createdAt))
      rows.push({ kind: 'day', key: `day-${m.id}`, date: m.createdAt });
    rows.push({ kind: 'message', key: `m-${m.id}`, message: m });
    previous = m;
  }
  return rows;
}

/** Location bodies are `previewImage|link|description` (description optional). */
export function parseLocation(body: string) {
  const [image, link, ...rest] = body.split('|');
  return { image: image || null, link: link || null, description: rest.join('|') || null };
}

/** Name and number from a vCard body. */
export function parseVcard(body: string) {
  const name =
    body.match(/^FN:(.*)$/m)?.[1]?.trim() ??
    body
      .match(/^N:(.*)$/m)?.[1]
      ?.split(';')
      .filter(Boolean)
      .reverse()
      .join(' ')
      .trim() ??
    '';
  const number = body.match(/waid=(\d+)/)?.[1] ?? body.match(/^TEL[^:]*:(.*)$/m)?.[1]?.replace(/\D/g, '') ?? '';
  return { name, number };
}

/**
 * A contact's new message in the conversation the attendant has open and in view is read as it
 * arrives, so the ticket's unread badge stays at zero; in a hidden tab it waits until the tab shows.
 */
export const readOnArrival = (
  event: { action: string; message?: Pick<Message, 'fromMe' | 'ticketId'> },
  openTicketId: number | null | undefined,
) =>
  event.action === 'create' &&
  !!event.message &&
  !event.message.fromMe &&
  Number(event.message.ticketId) === Number(openTicketId);

/** A message may be deleted only by its sender (fromMe), and not twice. */
export const canDeleteMessage = (m: Pick<Message, 'fromMe' | 'isDeleted'>) => m.fromMe && !m.isDeleted;
/** A message of ours flagged by the undelivered watchdog and not yet resent (the server refuses delivered ones). */
export const canResendMessage = (m: Pick<Message, 'fromMe' | 'isDeleted' | 'undelivered' | 'resentAs' | 'ack'>) =>
  m.fromMe && !m.isDeleted && Boolean(m.undelivered) && !m.resentAs && (m.ack ?? 0) < 2;

/** Ack marks: 0 pending, 1 sent, 2 delivered, 3 read, 4/5 played/read shown in colour. */
export function ackMark(ack: number | undefined): { icon: 'clock' | 'done' | 'doneAll'; coloured: boolean } {
  if (!ack) return { icon: 'clock', coloured: false };
  if (ack === 1) return { icon: 'done', coloured: false };
  if (ack === 2) return { icon: 'doneAll', coloured: false };
  return { icon: 'doneAll', coloured: ack >= 3 };
}

/** Media types whose body is the file name or structured data rather than a caption. */
export const bodyIsMediaData = (m: Message) =>
  ['locationMessage', 'vcard', 'contactMessage', 'call_log'].includes(m.mediaType ?? '') ||
  (Boolean(m.mediaUrl) && !['image', 'video'].includes(m.mediaType ?? ''));
