import {
  SQSClient,
  ReceiveMessageCommand,
  DeleteMessageCommand,
  ChangeMessageVisibilityCommand,
} from '@aws-sdk/client-sqs';
import { config } from '#lib/config';
import { log } from '#lib/log';
import { COMMAND_QUEUE, type SessionCommand } from '#shared/whatsapp-protocol';
import { perGroupSequencer } from './sequencer';
import type { SessionManager } from './session-manager';

/** Max commands being worked on at once (each group is still one at a time: the FIFO queue holds the next back). */
const MAX_IN_FLIGHT = 32;
/** A command for a session another runner holds goes back to the queue for this long. */
const ELSEWHERE_DELAY_SECONDS = 5;
const RETRY_DELAY_SECONDS = 2;

/**
 * Long-polls the `session-commands` FIFO queue with the plain SQS API (ReceiveMessage /
 * DeleteMessage), the same code on AWS and locally (the local gateway speaks that API).
 */
export function startCommandLoop(manager: SessionManager) {
  const { region, sqsEndpoint, queueUrls } = config();
  const queueUrl = queueUrls[COMMAND_QUEUE.replace(/-/g, '_')];
  if (!queueUrl) throw new Error(`queue ${COMMAND_QUEUE} is not configured`);
  const sqs = new SQSClient({
    region,
    endpoint: sqsEndpoint,
    ...(sqsEndpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  let running = true;
  let inFlight = 0;
  const abort = new AbortController();
  let slot: (() => void) | undefined;
  // SQS FIFO may hand out several messages of one group in a batch: they run one after another
  const inOrder = perGroupSequencer();

  const work = async (receiptHandle: string, body: string) => {
    try {
      const command = JSON.parse(body) as SessionCommand;
      const outcome = await manager.handle(command);
      if (outcome === 'elsewhere') {
        await sqs.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: receiptHandle,
            VisibilityTimeout: ELSEWHERE_DELAY_SECONDS,
          }),
        );
        return;
      }
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }));
    } catch (err) {
      log.error('command failed', { error: (err as Error).message });
      await sqs
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: receiptHandle,
            VisibilityTimeout: RETRY_DELAY_SECONDS,
          }),
        )
        .catch(() => undefined);
    } finally {
      inFlight--;
      slot?.();
    }
  };

  const loop = (async () => {
    let failures = 0;
    while (running) {
      if (inFlight >= MAX_IN_FLIGHT) {
        await new Promise<void>((r) => (slot = r));
        continue;
      }
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, MAX_IN_FLIGHT - inFlight),
            WaitTimeSeconds: 20,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
          { abortSignal: abort.signal },
        );
        failures = 0;
        for (const m of out.Messages ?? []) {
          inFlight++;
          void inOrder(m.Attributes?.MessageGroupId ?? m.MessageId!, () => work(m.ReceiptHandle!, m.Body ?? '{}'));
        }
      } catch (err) {
        if (!running) break;
        failures++;
        // the local gateway may not listen yet at start; AWS may throttle
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** Math.min(failures, 6))));
        if (failures > 3) log.warn('receive failed', { error: (err as Error).message });
      }
    }
  })();

  return {
    async stop() {
      running = false;
      abort.abort();
      slot?.();
      await loop;
    },
  };
}
