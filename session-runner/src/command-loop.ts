import {
  SQSClient,
  ReceiveMessageCommand,
  DeleteMessageCommand,
  ChangeMessageVisibilityCommand,
} from '@aws-sdk/client-sqs';
import { config } from '#lib/config';
import { localClientOptions } from '#lib/local-aws';
import { log } from '#lib/log';
import { COMMAND_QUEUE, type SessionCommand } from '#shared/whatsapp-protocol';
import type { RouteOutcome } from './fleet';
import { perGroupSequencer } from './sequencer';

/** Max commands being worked on at once (each group is still one at a time: the FIFO queue holds the next back). */
const MAX_IN_FLIGHT = 32;
const RETRY_DELAY_SECONDS = 2;
/**
 * A received command is hidden from other runners this long, and kept hidden while it is worked on
 * (a send waiting for its session to open, a command forwarded to the session's holder): after a
 * crash the queue hands it out again within this, not after the queue's whole visibility timeout.
 */
const VISIBILITY_SECONDS = 30;
const EXTEND_EVERY_MS = 10_000;

/**
 * Long-polls the `session-commands` FIFO queue with the plain SQS API (ReceiveMessage /
 * DeleteMessage), the same code on AWS and locally (the local gateway speaks that API), and hands
 * each command to `route` (the fleet: here, the session's holder, or a takeover).
 */
export function startCommandLoop(route: (command: SessionCommand) => Promise<RouteOutcome>) {
  const { region, sqsEndpoint, queueUrls } = config();
  const queueUrl = queueUrls.get(COMMAND_QUEUE.replace(/-/g, '_'));
  if (!queueUrl) throw new Error(`queue ${COMMAND_QUEUE} is not configured`);
  const sqs = new SQSClient({
    region,
    endpoint: sqsEndpoint,
    ...localClientOptions(sqsEndpoint),
  });
  let running = true;
  const abort = new AbortController();
  let slot: (() => void) | undefined;
  /** receipt handles of the commands being worked on */
  const inFlight = new Set<string>();
  const settledWaiters: (() => void)[] = [];
  // SQS FIFO may hand out several messages of one group in a batch: they run one after another
  const inOrder = perGroupSequencer();

  const visibility = (receiptHandle: string, seconds: number) =>
    sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );

  const keepHidden = setInterval(() => {
    for (const handle of inFlight)
      void visibility(handle, VISIBILITY_SECONDS).catch((err) =>
        log.warn('extending a command visibility failed', { error: (err as Error).message }),
      );
  }, EXTEND_EVERY_MS);

  const work = async (receiptHandle: string, body: string) => {
    try {
      const command = JSON.parse(body) as SessionCommand;
      const out = await route(command);
      if (out.outcome === 'retry') await visibility(receiptHandle, out.seconds);
      else await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }));
    } catch (err) {
      log.error('command failed', { error: (err as Error).message });
      await visibility(receiptHandle, RETRY_DELAY_SECONDS).catch(() => undefined);
    } finally {
      inFlight.delete(receiptHandle);
      slot?.();
      if (!inFlight.size) for (const done of settledWaiters.splice(0)) done();
    }
  };

  const loop = (async () => {
    let failures = 0;
    while (running) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await new Promise<void>((r) => (slot = r));
        continue;
      }
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, MAX_IN_FLIGHT - inFlight.size),
            WaitTimeSeconds: 20,
            VisibilityTimeout: VISIBILITY_SECONDS,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
          { abortSignal: abort.signal },
        );
        failures = 0;
        for (const m of out.Messages ?? []) {
          inFlight.add(m.ReceiptHandle!);
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
    /** Receives nothing more; the commands in flight go on. */
    async stopReceiving() {
      running = false;
      abort.abort();
      slot?.();
      await loop;
    },
    /** Resolves when every command in flight is done (deleted or given back), or at `deadline`. */
    async settled(deadline: number) {
      if (inFlight.size)
        await new Promise<void>((done) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          settledWaiters.push(() => {
            clearTimeout(timer);
            done();
          });
        });
      clearInterval(keepHidden);
    },
  };
}
