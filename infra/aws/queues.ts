import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SESSION_RUNNER_CONSUMER, type QueueDef, type TimerDef } from '../manifest';
import type { FunctionRegistry } from './app-function';

/** Lambda timeout of queue consumers and timers (the queue's visibility timeout is 6x, as AWS advises). */
const JOB_TIMEOUT_SECONDS = 60;
const DEFAULT_MAX_RECEIVE_COUNT = 5;

const visibilityTimeoutSeconds = (def: QueueDef) => def.visibilityTimeoutSeconds ?? 6 * JOB_TIMEOUT_SECONDS;

interface ManifestQueue {
  def: QueueDef;
  queue: sqs.Queue;
  deadLetters: sqs.Queue;
}

/**
 * The manifest's queues, each with its dead-letter queue. Created before the functions (every
 * function gets every queue's URL); consumers are attached afterwards by attachConsumers().
 */
export class Queues extends Construct {
  readonly byName = new Map<string, sqs.Queue>();
  private readonly entries: ManifestQueue[] = [];

  constructor(scope: Construct, id: string, defs: QueueDef[]) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    for (const def of defs) {
      const suffix = def.fifo ? '.fifo' : '';
      const fifoProps = def.fifo ? { fifo: true, contentBasedDeduplication: false } : {};
      const deadLetters = new sqs.Queue(this, `${def.name}-dlq`, {
        queueName: `${stackName}-${def.name}-dlq${suffix}`,
        retentionPeriod: Duration.days(14),
        enforceSSL: true,
        ...fifoProps,
      });
      const queue = new sqs.Queue(this, def.name, {
        queueName: `${stackName}-${def.name}${suffix}`,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(def)),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: def.maxReceiveCount ?? DEFAULT_MAX_RECEIVE_COUNT },
        enforceSSL: true,
        ...fifoProps,
      });
      this.byName.set(def.name, queue);
      this.entries.push({ def, queue, deadLetters });
    }
  }

  /** Queues whose consumer is the session runner, polled by its Fargate task. */
  get sessionRunnerQueues(): sqs.Queue[] {
    return this.entries.filter((e) => e.def.consumer === SESSION_RUNNER_CONSUMER).map((e) => e.queue);
  }

  /** An SQS event source per Lambda-consumed queue; failed records are retried one by one. */
  attachConsumers(functions: FunctionRegistry) {
    for (const { def, queue } of this.entries) {
      if (def.consumer === SESSION_RUNNER_CONSUMER) continue;
      // A consumer may not run longer than its messages stay invisible.
      const timeoutSeconds = Math.min(JOB_TIMEOUT_SECONDS, visibilityTimeoutSeconds(def));
      // The local runtime delivers one record at a time; FIFO keeps that by default so a failed
      // record never leaves later ones of its group processed out of order.
      const batchSize = def.batchSize ?? (def.fifo ? 1 : 10);
      functions.get(def.consumer, { timeoutSeconds }).addEventSource(
        new SqsEventSource(queue, {
          batchSize,
          reportBatchItemFailures: true,
          // Standard queues need a batching window for batches above 10; FIFO queues allow none.
          maxBatchingWindow: !def.fifo && batchSize > 10 ? Duration.seconds(1) : undefined,
        }),
      );
    }
  }
}

/** An EventBridge rule per manifest timer, calling its handler every `everyMinutes`. */
export class Timers extends Construct {
  constructor(scope: Construct, id: string, defs: TimerDef[], functions: FunctionRegistry) {
    super(scope, id);
    for (const def of defs) {
      const fn = functions.get(def.handler, { timeoutSeconds: JOB_TIMEOUT_SECONDS });
      new events.Rule(this, def.name, {
        description: `timer ${def.name}`,
        schedule: events.Schedule.rate(Duration.minutes(def.everyMinutes)),
        // A missed tick is covered by the next one; retrying would only pile up.
        targets: [new targets.LambdaFunction(fn, { retryAttempts: 0 })],
      });
    }
  }
}
