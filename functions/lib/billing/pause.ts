import { updateItem } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { companyKeys, toCompany } from '../accounts/companies';
import { closeBarredSockets } from '../accounts/sessions';
import { listWhatsapps } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { isCloudProvider } from '#shared/constants';

/** The connections a runner holds a session for (a Cloud API number has none to pause). */
const sessionsOf = async (companyId: number) =>
  (await listWhatsapps(companyId)).filter((w) => !isCloudProvider(w.provider));

/**
 * An expired company's WhatsApp sessions pause (the runner closes them and keeps their keys) and
 * resume without a new QR code once it pays. `pausedAt` on the company is claimed conditionally,
 * so each pause and each resume sends its commands once. Pausing also closes the sockets of its
 * users who may no longer sign in (all but its admins, who stay to pay).
 */
export async function pauseCompanySessions(companyId: number): Promise<boolean> {
  const claimed = await updateItem(companyKeys(companyId), {
    set: { pausedAt: nowIso() },
    condition: 'attribute_exists(pk) AND attribute_not_exists(pausedAt)',
  });
  if (!claimed) return false;
  await closeBarredSockets(toCompany(claimed));
  const connections = await sessionsOf(companyId);
  await Promise.all(connections.map((w) => sendSessionCommand({ type: 'stop', companyId, whatsappId: w.id })));
  log.info('company sessions paused', { companyId, connections: connections.length });
  return true;
}

export async function resumeCompanySessions(companyId: number): Promise<boolean> {
  const released = await updateItem(companyKeys(companyId), {
    remove: ['pausedAt'],
    condition: 'attribute_exists(pausedAt)',
  });
  if (!released) return false;
  const connections = await sessionsOf(companyId);
  await Promise.all(connections.map((w) => sendSessionCommand({ type: 'start', companyId, whatsappId: w.id })));
  log.info('company sessions resumed', { companyId, connections: connections.length });
  return true;
}
