import { randomUUID, createHash } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueDef } from '../manifest';

/** An SQS consumer; it may answer `{ batchItemFailures }` (partial batch response) or nothing. */
type Consumer = (event: SQSEvent) => Promise<unknown>;

const failedIds = (out: unknown): string[] =>
  ((out as { batchItemFailures?: { itemIdentifier: string }[] } | undefined)?.batchItemFailures ?? []).map(
    (f) => f.itemIdentifier,
  );

/**
 * Tests only (stack option `faultInjection`): fails a share of the consumer's batches at random, half
 * before the consumer runs (a crash on start) and half after it did its work (a timeout after the
 * writes), so the queue retries records that were and were not processed. `injected` counts them.
 */
export function withFaults(consumer: Consumer, failRate: number, counter: { injected: number }): Consumer {
  return async (event) => {
    const roll = Math.random();
    const failAll = () => {
      counter.injected++;
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    };
    if (roll < failRate / 2) return failAll();
    const out = await consumer(event);
    return roll < failRate ? failAll() : out;
  };
}

interface Message {
  id: string;
  body: string;
  groupId?: string;
  dedupId?: string;
  receiveCount: number;
  sentAt: number;
  /** the company it is for (its body's `companyId`, or its group's `company#<id>#`), `*` when neither says */
  scope: string;
  /** waited for by idle(): from its send (or its delay's end, for one delayed a minute or more) to its last delivery */
  outstanding?: boolean;
}

/** Whose work a message is: idle(companyId) waits only for that company's and for work no company owns. */
function scopeOf(body: string, groupId?: string): string {
  const group = groupId?.match(/^company#(\d+)#/);
  if (group) return group[1]!;
  try {
    const companyId = (JSON.parse(body) as { companyId?: unknown } | null)?.companyId;
    if (typeof companyId === 'number' || (typeof companyId === 'string' && companyId)) return String(companyId);
  } catch {
    // not JSON: nobody's in particular
  }
  return '*';
}

const DEDUP_WINDOW_MS = 5 * 60 * 1000;
/** delays from this long on are not waited for by idle() */
const SCHEDULED_AFTER_MS = 60 * 1000;

/**
 * In-process queues with SQS semantics that matter here: FIFO order per message group (a group
 * waits while one of its messages is in flight or waiting for a retry), 5-minute deduplication,
 * delay, retries up to maxReceiveCount with growing back-off, then a dead-letter list that is logged.
 */
export class LocalQueue {
  readonly deadLetters: Message[] = [];
  /** messages that ever reached the dead letters (a redriven one that fails again counts twice) */
  deadLettered = 0;
  private ready: Message[] = [];
  private busyGroups = new Set<string>();
  private dedup = new Map<string, number>();
  private inFlight = 0;
  /** deliveries running in the consumer right now (bounded like a Lambda's concurrency) */
  private delivering = 0;
  /** sent with a delay not yet passed; failed and waiting for their retry */
  private delayed = 0;
  private retrying = 0;
  private idleWaiters: (() => void)[] = [];
  /** per scope (scopeOf), the messages idle() waits for */
  private outstanding = new Map<string, number>();
  private scopedWaiters: { scope: string; done: () => void }[] = [];
  private timers = new Set<NodeJS.Timeout>();
  /** deliveries waiting for their DelaySeconds: `releaseDelayed` runs them now (tests move the clock) */
  private waitingForDelay = new Map<NodeJS.Timeout, () => void>();
  private stopped = false;

  constructor(
    readonly def: QueueDef,
    private consumer: Consumer,
    private onDeadLetter: (queue: string, message: Message, error: string) => void,
    private retryBaseMs = 200,
    private maxConcurrency = Number.POSITIVE_INFINITY,
  ) {}

  send(body: string, opts: { groupId?: string; dedupId?: string; delaySeconds?: number } = {}) {
    const now = Date.now();
    const dedupId = this.def.fifo ? (opts.dedupId ?? createHash('sha256').update(body).digest('hex')) : undefined;
    const id = randomUUID();
    if (dedupId) {
      const seen = this.dedup.get(dedupId);
      if (seen && now - seen < DEDUP_WINDOW_MS) return id;
      this.dedup.set(dedupId, now);
    }
    const message: Message = {
      id,
      body,
      groupId: opts.groupId,
      dedupId,
      receiveCount: 0,
      sentAt: now,
      scope: scopeOf(body, opts.groupId),
    };
    const delayMs = (opts.delaySeconds ?? 0) * 1000;
    // A message delayed for minutes (a campaign waiting for tomorrow's cap) is scheduled work, not
    // work in progress: waiting for the queues to be idle does not wait for it.
    const counted = delayMs < SCHEDULED_AFTER_MS && !(delayMs > 0 && this.def.delayedIsScheduled);
    if (counted) this.inFlight++;
    if (counted) this.track(message);
    if (delayMs > 0) this.delayed++;
    const arrive = () => {
      if (counted) this.inFlight--;
      if (delayMs > 0) this.delayed--;
      this.track(message);
      this.ready.push(message);
      this.pump();
    };
    if (delayMs <= 0) this.later(arrive, 0);
    else {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.waitingForDelay.delete(timer);
        arrive();
      }, delayMs);
      this.timers.add(timer);
      this.waitingForDelay.set(timer, arrive);
    }
    return id;
  }

  /**
   * Tests: every message still waiting for its DelaySeconds arrives now, as if the clock had moved
   * past the delays (retries' back-offs are left alone). Answers how many arrived.
   */
  releaseDelayed(): number {
    const due = [...this.waitingForDelay];
    this.waitingForDelay.clear();
    for (const [timer, arrive] of due) {
      clearTimeout(timer);
      this.timers.delete(timer);
      arrive();
    }
    return due.length;
  }

  private later(fn: () => void, ms: number) {
    if (ms <= 0) return queueMicrotask(fn);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private pump() {
    if (this.stopped) return;
    for (let i = 0; i < this.ready.length && this.delivering < this.maxConcurrency; i++) {
      const message = this.ready[i]!;
      if (message.groupId && this.busyGroups.has(message.groupId)) continue;
      this.ready.splice(i--, 1);
      void this.deliver(message);
    }
    this.checkIdle();
  }

  private async deliver(message: Message) {
    if (message.groupId) this.busyGroups.add(message.groupId);
    this.inFlight++;
    this.delivering++;
    message.receiveCount++;
    const record: SQSRecord = {
      messageId: message.id,
      receiptHandle: message.id,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
        ...(message.groupId ? { MessageGroupId: message.groupId } : {}),
        ...(message.dedupId ? { MessageDeduplicationId: message.dedupId } : {}),
      } as SQSRecord['attributes'],
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${this.def.name}`,
      awsRegion: 'local',
    };
    let error: string | undefined;
    try {
      const out = await this.consumer({ Records: [record] });
      if (failedIds(out).includes(message.id)) error = 'reported as a batch item failure';
    } catch (err) {
      error = (err as Error)?.stack ?? String(err);
    }
    this.inFlight--;
    this.delivering--;
    if (!error) {
      if (message.groupId) this.busyGroups.delete(message.groupId);
      this.settle(message);
      return this.pump();
    }
    if (message.receiveCount >= (this.def.maxReceiveCount ?? 5)) {
      this.settle(message);
      this.deadLetters.push(message);
      this.deadLettered++;
      this.onDeadLetter(this.def.name, message, error);
      if (message.groupId) this.busyGroups.delete(message.groupId);
      return this.pump();
    }
    // The group stays blocked until its failed message is retried, as on a FIFO queue.
    this.inFlight++;
    this.retrying++;
    this.later(
      () => {
        this.inFlight--;
        this.retrying--;
        if (message.groupId) this.busyGroups.delete(message.groupId);
        this.ready.unshift(message);
        this.pump();
      },
      this.retryBaseMs * 2 ** (message.receiveCount - 1),
    );
  }

  private checkIdle() {
    if (this.inFlight === 0 && this.ready.length === 0) {
      for (const done of this.idleWaiters.splice(0)) done();
    }
    const waiting = this.scopedWaiters;
    this.scopedWaiters = [];
    for (const w of waiting) {
      if (this.isDrainedFor(w.scope)) w.done();
      else this.scopedWaiters.push(w);
    }
  }

  /** From now until its last delivery, idle() waits for this message. */
  private track(message: Message) {
    if (message.outstanding) return;
    message.outstanding = true;
    this.outstanding.set(message.scope, (this.outstanding.get(message.scope) ?? 0) + 1);
  }

  /** Delivered, or gone to the dead letters: done with. */
  private settle(message: Message) {
    if (!message.outstanding) return;
    message.outstanding = false;
    const left = (this.outstanding.get(message.scope) ?? 1) - 1;
    if (left > 0) this.outstanding.set(message.scope, left);
    else this.outstanding.delete(message.scope);
  }

  /** Nothing of this company's, and nothing of no company's, is queued, retrying or being delivered. */
  isDrainedFor(companyId: string) {
    return !this.outstanding.has(companyId) && !this.outstanding.has('*');
  }

  /** The counts SQS's GetQueueAttributes gives (a message waiting for its retry is not visible, as on SQS). */
  counts() {
    return {
      visible: this.ready.length,
      notVisible: this.delivering + this.retrying,
      delayed: this.delayed,
      deadLetters: this.deadLetters.length,
    };
  }

  /** The dead letters go back to the queue as new receives (SQS's redrive); answers how many. */
  redrive() {
    const moved = this.deadLetters.splice(0);
    for (const message of moved) {
      message.receiveCount = 0;
      this.track(message);
      this.ready.push(message);
    }
    this.pump();
    return moved.length;
  }

  /** nothing ready and nothing being delivered */
  isDrained() {
    return this.ready.length === 0 && this.inFlight === 0;
  }

  /**
   * Resolves when nothing is queued, delayed for less than a minute, or in flight; with a company,
   * when nothing of that company's is, nor anything no company owns (scopeOf): other companies'
   * traffic does not hold it up.
   */
  idle(companyId?: string): Promise<void> {
    if (companyId !== undefined) {
      if (this.isDrainedFor(companyId)) return Promise.resolve();
      return new Promise((done) => this.scopedWaiters.push({ scope: companyId, done }));
    }
    if (this.inFlight === 0 && this.ready.length === 0) return Promise.resolve();
    return new Promise((done) => this.idleWaiters.push(done));
  }

  stop() {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

interface Lease {
  record: SQSRecord;
  receiptHandle: string;
  /** the process that received it (one runner of several) */
  consumerId: string;
  settle: (error?: string) => void;
  timer?: NodeJS.Timeout;
}

/**
 * The consumer side of a queue polled by external processes (the session runners) through the
 * SQS API: a LocalQueue delivers each message to `consumer`, which parks it until a
 * `ReceiveMessage` hands it out; `DeleteMessage` completes it, and a visibility timeout that runs
 * out fails it so the LocalQueue retries it (same FIFO, dedup and dead-letter rules as Lambda
 * consumers). Each receive names its consumer, so a killed runner hands back only what it held.
 */
export class ExternalConsumer {
  private available: Lease[] = [];
  private leased = new Map<string, Lease>();
  private receivers: { consumerId: string; wake: () => void }[] = [];
  /** bumped per consumer when its process dies: its pending receives hand out nothing */
  private epochs = new Map<string, number>();

  constructor(private visibilitySeconds = 30) {}

  readonly consumer: Consumer = (event) =>
    new Promise<void>((done, fail) => {
      const record = event.Records[0]!;
      const lease: Lease = {
        record,
        receiptHandle: '',
        consumerId: '',
        settle: (error) => (error ? fail(new Error(error)) : done()),
      };
      this.available.push(lease);
      for (const r of this.receivers.splice(0)) r.wake();
    });

  /** `ReceiveMessage`: up to `max` messages, waiting up to `waitSeconds` for the first one. */
  async receive(max: number, waitSeconds: number, visibilitySeconds = this.visibilitySeconds, consumerId = '') {
    const epoch = this.epochs.get(consumerId) ?? 0;
    if (!this.available.length && waitSeconds > 0) {
      await new Promise<void>((wake) => {
        const receiver = {
          consumerId,
          wake: () => {
            clearTimeout(timer);
            wake();
          },
        };
        const timer = setTimeout(() => {
          this.receivers = this.receivers.filter((r) => r !== receiver);
          wake();
        }, waitSeconds * 1000);
        this.receivers.push(receiver);
      });
    }
    if (epoch !== (this.epochs.get(consumerId) ?? 0)) return [];
    const taken = this.available.splice(0, Math.max(1, max));
    for (const lease of taken) {
      lease.receiptHandle = `${lease.record.messageId}#${randomUUID()}`;
      lease.consumerId = consumerId;
      this.leased.set(lease.receiptHandle, lease);
      this.arm(lease, visibilitySeconds);
    }
    return taken.map((l) => ({ record: l.record, receiptHandle: l.receiptHandle }));
  }

  private arm(lease: Lease, seconds: number) {
    if (lease.timer) clearTimeout(lease.timer);
    lease.timer = setTimeout(() => {
      this.leased.delete(lease.receiptHandle);
      lease.settle('visibility timeout expired');
    }, seconds * 1000);
  }

  /** `DeleteMessage`: the message was processed. */
  delete(receiptHandle: string) {
    const lease = this.leased.get(receiptHandle);
    if (!lease) return false;
    clearTimeout(lease.timer);
    this.leased.delete(receiptHandle);
    lease.settle();
    return true;
  }

  /** `ChangeMessageVisibility`: 0 gives the message back at once (as a failed attempt). */
  changeVisibility(receiptHandle: string, seconds: number) {
    const lease = this.leased.get(receiptHandle);
    if (!lease) return false;
    if (seconds <= 0) {
      clearTimeout(lease.timer);
      this.leased.delete(receiptHandle);
      lease.settle('visibility set to 0');
    } else this.arm(lease, seconds);
    return true;
  }

  /**
   * Tests: the polling process `consumerId` was killed. Its long polls answer nothing (nobody reads
   * the answer) and what it had received comes back at once, as when the visibility timeout runs
   * out, without waiting out the timeout; what other consumers hold stays theirs.
   */
  abandonLeases(consumerId = '') {
    this.epochs.set(consumerId, (this.epochs.get(consumerId) ?? 0) + 1);
    for (const r of this.receivers.filter((x) => x.consumerId === consumerId)) r.wake();
    this.receivers = this.receivers.filter((x) => x.consumerId !== consumerId);
    for (const lease of [...this.leased.values()]) {
      if (lease.consumerId !== consumerId) continue;
      clearTimeout(lease.timer);
      this.leased.delete(lease.receiptHandle);
      lease.settle('the consumer died');
    }
  }

  /** Stops waiting receivers and parks nothing more (stack shutdown). */
  stop() {
    for (const r of this.receivers.splice(0)) r.wake();
    for (const lease of this.leased.values()) clearTimeout(lease.timer);
  }
}
