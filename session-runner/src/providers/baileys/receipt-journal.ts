import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { batchWrite, putItem, queryAll } from '#lib/db';
import { log } from '#lib/log';
import { Lru } from '../../lru';
import { runnerCounters } from '../../counters';

/** Entries deleted in one batch; a delete waits at most DELETE_DELAY_MS for others to join it. */
const DELETE_BATCH = 25;
const DELETE_DELAY_MS = 200;
/**
 * Ids held and not yet released that are remembered (only those are deleted: most upserts were
 * never held, like our own sends' echoes). One forgotten leaves its entry for the next connect,
 * which delivers the message again and the pipeline drops it as a repeat.
 */
const HELD_MAX = 5_000;
/**
 * Attempts at one entry before the message goes through unjournalled, with doubling waits from
 * HOLD_RETRY_MS (about 0.7 s of waiting in all, plus the attempts themselves).
 */
export const HOLD_ATTEMPTS = 4;
const HOLD_RETRY_MS = 100;

/** Messages let through without their journal entry since the process started (every session). */
let bypassed = 0;
export const journalBypasses = () => bypassed;

export interface JournalItem {
  pk: string;
  sk: string;
  /** the message as WhatsApp sent it (proto bytes, base64) */
  data: string;
  /** the key's fields the proto does not carry (remoteJidAlt, participantAlt ...) */
  key: string;
}

/** Where journal entries are kept: the table, or memory in unit tests. */
export interface JournalStore {
  put(item: JournalItem): Promise<void>;
  list(pk: string, skPrefix: string): Promise<JournalItem[]>;
  delete(keys: { pk: string; sk: string }[]): Promise<void>;
}

export const tableJournal: JournalStore = {
  put: (item) => putItem({ ...item }),
  list: (pk, prefix) => queryAll<JournalItem>({ pk, sk: { beginsWith: prefix } }),
  delete: (keys) => batchWrite([], keys),
};

/**
 * The messages of one session that WhatsApp was told are delivered but that are not yet on the
 * inbound queue. Baileys sends a message's delivery receipt before it emits the message (and
 * WhatsApp never sends a receipted message again), so a runner killed in between would lose it:
 * each message is written here before its receipt goes out (Baileys' `beforeDeliveryReceipt`,
 * patched in: patches/), deleted once its event is on the queue, and whatever is left when the
 * session connects again (on this runner or another) is delivered again. The inbound pipeline
 * drops a message it already stored, so a message delivered twice is stored once.
 * Items live in the session's auth partition (`INBOX#<message id>`), so a logout clears them too.
 */
export class ReceiptJournal {
  private deletes: string[] = [];
  private timer?: NodeJS.Timeout;
  private deleting: Promise<void> = Promise.resolve();
  private held = new Lru<true>({ max: HELD_MAX });

  constructor(
    private pk: string,
    private store: JournalStore = tableJournal,
    private retryMs = HOLD_RETRY_MS,
  ) {}

  private static sk = (id: string) => `INBOX#${id}`;

  /**
   * Stores a message before its receipt, trying a few times. It never refuses the message (R3 of
   * whatsapp-review-3): the hook runs after the message was decrypted and its Signal session moved
   * on, so a copy WhatsApp sent again could not be decrypted and the message would be lost. When
   * every attempt fails the message goes through unjournalled (counted, logged): it is then lost
   * only if the runner also dies before its event reaches the queue.
   */
  async hold(msg: WAMessage) {
    const id = msg.key.id;
    if (!id) return;
    const item: JournalItem = {
      pk: this.pk,
      sk: ReceiptJournal.sk(id),
      data: Buffer.from(proto.WebMessageInfo.encode(msg).finish()).toString('base64'),
      key: JSON.stringify(msg.key),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.store.put(item);
        this.held.set(id, true);
        return;
      } catch (err) {
        if (attempt >= HOLD_ATTEMPTS) {
          bypassed++;
          runnerCounters.journalBypasses++;
          log.error('journal write failed: the message goes on unjournalled', {
            pk: this.pk,
            id,
            attempts: attempt,
            error: String(err),
          });
          return;
        }
        await new Promise((r) => setTimeout(r, this.retryMs * 2 ** (attempt - 1)));
      }
    }
  }

  /** The message is on the queue (or was dropped on purpose): its entry goes, in a batch. */
  release(id: string | null | undefined) {
    if (!id || !this.held.has(id)) return;
    this.held.del(id);
    this.deletes.push(id);
    if (this.deletes.length >= DELETE_BATCH) this.deleteNow();
    else this.timer ??= setTimeout(() => this.deleteNow(), DELETE_DELAY_MS);
  }

  /** Messages held and not released, as Baileys reported them. */
  async pending(): Promise<WAMessage[]> {
    const items = await this.store.list(this.pk, ReceiptJournal.sk(''));
    return items.map((item) => {
      const msg = proto.WebMessageInfo.decode(Buffer.from(item.data, 'base64')) as WAMessage;
      msg.key = { ...msg.key, ...JSON.parse(item.key) };
      if (msg.key.id) this.held.set(msg.key.id, true);
      return msg;
    });
  }

  /** Resolves once every release asked for so far is stored (shutdown). */
  async flush() {
    this.deleteNow();
    await this.deleting;
  }

  private deleteNow() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.deletes.splice(0);
    if (!ids.length) return;
    const keys = ids.map((id) => ({ pk: this.pk, sk: ReceiptJournal.sk(id) }));
    // an entry left behind only means one message delivered again (and dropped as a repeat)
    this.deleting = this.deleting
      .then(() => this.store.delete(keys))
      .catch((err) => log.warn('releasing journalled messages failed', { pk: this.pk, error: String(err) }));
  }
}
