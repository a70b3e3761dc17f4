import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from './config';
import { localClientOptions } from './local-aws';

let client: SQSClient | undefined;
/** The one SQS client of a runtime (the local gateway's endpoint when one is configured). */
export function sqs() {
  const { region, sqsEndpoint } = config();
  client ??= new SQSClient({
    region,
    endpoint: sqsEndpoint,
    ...localClientOptions(sqsEndpoint),
  });
  return client;
}

export function resetQueue() {
  client = undefined;
}

export interface EnqueueOptions {
  /** FIFO queues: messages of one group are delivered in order */
  groupId?: string;
  /** FIFO queues: a repeated id within 5 minutes is dropped */
  dedupId?: string;
  delaySeconds?: number;
}

/** Sends one message to a manifest queue by name (`send`, `inbound` ...). */
export async function enqueue(queue: string, body: unknown, opts: EnqueueOptions = {}) {
  const url = config().queueUrls.get(queue.toLowerCase().replace(/-/g, '_'));
  if (!url) throw new Error(`queue ${queue} is not configured`);
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: url,
      MessageBody: JSON.stringify(body),
      MessageGroupId: opts.groupId,
      MessageDeduplicationId: opts.dedupId,
      DelaySeconds: opts.delaySeconds,
    }),
  );
}

/** Env var name holding a queue's URL: `QUEUE_URL_<NAME>`. */
export const queueEnvName = (queue: string) => `QUEUE_URL_${queue.toUpperCase().replace(/-/g, '_')}`;
