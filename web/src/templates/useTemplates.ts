import type { WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { useApi } from '../api/swr';
import { liveMutation } from '../realtime/cache';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { applyTemplateEvent, eventConnection, type TemplateEvent } from './template-rules';

export const templatesPath = (whatsappId: number) => `/whatsapp/${whatsappId}/templates`;

/**
 * A connection's message templates (null: not yet), kept live by the `whatsappTemplate` events: one
 * template changed or gone is applied to the cache, a sync fetches them again and calls `onReload`.
 */
export function useTemplates(whatsappId: number | null, onReload?: () => void) {
  const swr = useApi<WhatsappTemplate[]>(whatsappId ? templatesPath(whatsappId) : null);
  const { data, mutate } = swr;
  useRealtimeEvent<TemplateEvent>('whatsappTemplate', (ev) => {
    if (!whatsappId || eventConnection(ev) !== whatsappId) return;
    if (ev.action === 'reload') {
      void mutate();
      onReload?.();
    } else void mutate((list) => applyTemplateEvent(list, ev), liveMutation(data));
  });
  return swr;
}
