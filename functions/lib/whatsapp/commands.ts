import { randomUUID } from 'node:crypto';
import { COMMAND_QUEUE, commandLane, type SessionCommand } from '#shared/whatsapp-protocol';
import { enqueue } from '../queue';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Sends a command to the session runner: FIFO group per connection, so a start, a send and a
 * disconnect of one connection run in the order they were given.
 */
export async function sendSessionCommand(
  command: DistributiveOmit<SessionCommand, 'commandId'> & { commandId?: string },
) {
  const full = { ...command, commandId: command.commandId ?? randomUUID() } as SessionCommand;
  await enqueue(COMMAND_QUEUE, full, {
    groupId: commandLane(full),
    dedupId: full.commandId,
  });
  return full;
}
