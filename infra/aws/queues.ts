import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { JOB_TIMEOUT_SECONDS, queueTimeouts, SESSION_RUNNER_CONSUMER, type QueueDef, type TimerDef } from '../manifest';
import type { FunctionRegistry } from './app-function';

const DEFAULT_MAX_RECEIVE_COUNT = 5;

interface ManifestQueue {
  def: QueueDef;
  queue: sqs.Queue;
  deadLetters: sqs.Queue;
}

/**
 * The manifest's queues, each with its dead-letter queue and an alarm on it. Created before the
 * functions (which get the URLs of the queues they send to); consumers are attached afterwards by
 * attachConsumers().
 */
export class Queues extends Construct {
  readonly byName = new Map<string, sqs.Queue>();
  private readonly entries: ManifestQueue[] = [];

  /** `alarms`: where a message landing in any dead-letter queue is reported */
  constructor(scope: Construct, id: string, defs: QueueDef[], alarms: sns.ITopic) {
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
        visibilityTimeout: Duration.seconds(queueTimeouts(def).visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: def.maxReceiveCount ?? DEFAULT_MAX_RECEIVE_COUNT },
        enforceSSL: true,
        ...fifoProps,
      });
      this.byName.set(def.name, queue);
      this.entries.push({ def, queue, deadLetters });
      // A dead letter is work that failed every try (a send, an inbound message): someone must look.
      new cloudwatch.Alarm(this, `${def.name}-dlq-alarm`, {
        alarmDescription: `Messages in the dead-letter queue of ${def.name}`,
        metric: deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new actions.SnsAction(alarms));
    }
  }

  /** Queues whose consumer is the session runner, polled by its Fargate task: name -> queue. */
  get sessionRunnerQueues(): Map<string, sqs.Queue> {
    return new Map(
      this.entries.filter((e) => e.def.consumer === SESSION_RUNNER_CONSUMER).map((e) => [e.def.name, e.queue]),
    );
  }

  /** An SQS event source per Lambda-consumed queue; failed records are retried one by one. */
  attachConsumers(functions: FunctionRegistry) {
    for (const { def, queue } of this.entries) {
      if (def.consumer === SESSION_RUNNER_CONSUMER) continue;
      // The queue's visibility is derived from this timeout (infra/manifest.ts queueTimeouts).
      const { timeoutSeconds } = queueTimeouts(def);
      // The local runtime delivers one record at a time; FIFO keeps that by default so a failed
      // record never leaves later ones of its group processed out of order.
      const batchSize = def.batchSize ?? (def.fifo ? 1 : 10);
      functions.get(def.consumer, def.access ?? 'jobs', { timeoutSeconds }).addEventSource(
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
      const fn = functions.get(def.handler, 'jobs', { timeoutSeconds: JOB_TIMEOUT_SECONDS });
      new events.Rule(this, def.name, {
        description: `timer ${def.name}`,
        schedule: events.Schedule.rate(Duration.minutes(def.everyMinutes)),
        // A missed tick is covered by the next one; retrying would only pile up.
        targets: [new targets.LambdaFunction(fn, { retryAttempts: 0 })],
      });
    }
  }
}
