import type { InboundEvent } from '#shared/whatsapp-protocol';
import { applySessionEvent } from '../whatsapp/service';
import { recordNumberCheck } from '../whatsapp/numbers';

/** One provider event from the session runner, by type. */
export async function handleInbound(event: InboundEvent) {
  switch (event.type) {
    case 'session':
      await applySessionEvent(event);
      return;
    case 'checkNumberResult':
      await recordNumberCheck(event);
      return;
    default:
      return;
  }
}
