import { GetQueueAttributesCommand, type QueueAttributeName, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import type { FleetQueue } from '#shared/schemas/fleet';
import { PLATFORM_COMPANY_ID } from '#shared/constants';
import { type AuditActor, auditBy } from '../audit/actor';
import { config } from '../config';
import { notFound } from '../errors';
import { sqs } from '../queue';

const DEPTH: QueueAttributeName[] = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
];

async function attributes(url: string, names: QueueAttributeName[]) {
  const out = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: names }));
  return out.Attributes ?? {};
}

/**
 * The platform's queues and their dead-letter queues as SQS counts them (approximate, as SQS says),
 * through the SQS API on AWS and locally alike (the local gateway answers it). The queues are the
 * ones this function was given (`QUEUE_URL_*` with `DLQ_URL_*`, the `fleet` access group).
 */
export async function queueDepths(): Promise<FleetQueue[]> {
  const { queueUrls, deadLetterUrls } = config();
  const rows = await Promise.all(
    [...deadLetterUrls].map(async ([key, dlqUrl]) => {
      const url = queueUrls.get(key);
      const [own, dead] = await Promise.all([
        url ? attributes(url, DEPTH) : Promise.resolve<Record<string, string>>({}),
        attributes(dlqUrl, ['ApproximateNumberOfMessages']),
      ]);
      return {
        name: key.replace(/_/g, '-'),
        visible: Number(own.ApproximateNumberOfMessages ?? 0),
        inFlight: Number(own.ApproximateNumberOfMessagesNotVisible ?? 0),
        delayed: Number(own.ApproximateNumberOfMessagesDelayed ?? 0),
        deadLetters: Number(dead.ApproximateNumberOfMessages ?? 0),
      };
    }),
  );
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Moves a queue's dead letters back to it (SQS's own redrive, StartMessageMoveTask: the messages go
 * to the queue they came from, in the order they arrived). Answers how many were waiting.
 */
export async function redriveDeadLetters(name: string, by: AuditActor) {
  const dlqUrl = config().deadLetterUrls.get(name.toLowerCase().replace(/-/g, '_'));
  if (!dlqUrl) throw notFound();
  const dead = await attributes(dlqUrl, ['QueueArn', 'ApproximateNumberOfMessages']);
  const waiting = Number(dead.ApproximateNumberOfMessages ?? 0);
  if (waiting > 0) {
    await sqs().send(new StartMessageMoveTaskCommand({ SourceArn: dead.QueueArn }));
    await auditBy(by, {
      companyId: PLATFORM_COMPANY_ID,
      action: 'queue.redriven',
      target: { type: 'queue', id: name },
      changes: { messages: waiting },
    });
  }
  return { name, moved: waiting };
}
