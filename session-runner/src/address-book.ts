import { log } from '#lib/log';
import type { AddressBookEntry } from '#shared/whatsapp-protocol';
import type { AuthStore } from './auth-store';
import { backoff } from './close-policy';
import { Lru } from './lru';

/** What Baileys reports of a contact (contacts.upsert / contacts.update / history sync). */
export interface ReportedContact {
  id?: string;
  phoneNumber?: string;
  name?: string;
  notify?: string;
  verifiedName?: string;
}

/** A contact's names: `saved` on the phone (history sync, contact sync), `push` the one it gave itself. */
export interface ContactNames {
  saved?: string;
  push?: string;
}

const PN_SUFFIX = '@s.whatsapp.net';
/** One item per contact with its names as fields (`KEY#contact-name#<number>`, saved/push). */
const ENTRY_TYPE = 'contact-name';
/** The whole book in one item, as earlier versions kept it: still read, never written. */
const LEGACY_TYPE = 'address-book';
/** Changes waiting for the save timer; past this many they are written at once. */
export const MAX_PENDING = 500;
/** Names known to be stored, so a push name that comes with every message is not written every time. */
const KNOWN_MAX = 1_000;
const KNOWN_TTL_MS = 3600_000;
const RETRY_BASE_MS = 1_000;
const RETRY_CAP_MS = 60_000;

/**
 * The phone's address book as WhatsApp reports it to a linked device: entries arrive in pieces
 * (the first history sync, then upserts and updates) and are never sent again, so they are kept
 * with the session's keys, one item per contact, where a runner restart finds them. Only contacts
 * with a phone number are kept (groups, broadcast lists and @lid-only ids are not importable). The
 * name listed is the one saved on the phone, else the contact's own: rc14 reports the push name
 * with every inbound message (contacts.update {notify}), which must not replace a saved name. Only
 * changes are held in memory, and only the changed name of a changed contact is written.
 */
export class AddressBook {
  private pending = new Map<string, ContactNames>();
  /** the batch being written */
  private writing?: Map<string, ContactNames>;
  private known = new Lru<ContactNames>({ max: KNOWN_MAX, ttlMs: KNOWN_TTL_MS });
  private saveTimer?: NodeJS.Timeout;
  private writer?: Promise<void>;

  constructor(
    private auth: AuthStore,
    private saveDelayMs = 2_000,
  ) {}

  /** Takes the names that changed; true when some did (then a save follows shortly). */
  merge(contacts: ReportedContact[]): boolean {
    let changed = false;
    for (const c of contacts) {
      const reported = reportedNames(c);
      if (!reported) continue;
      const { number, names } = reported;
      const waiting = this.pending.get(number);
      const current = { ...this.known.get(number), ...this.writing?.get(number), ...waiting };
      const change: ContactNames = {};
      if (names.saved && names.saved !== current.saved) change.saved = names.saved;
      if (names.push && names.push !== current.push) change.push = names.push;
      if (!change.saved && !change.push) continue;
      this.pending.set(number, { ...waiting, ...change });
      changed = true;
      // a history sync brings thousands at once
      if (this.pending.size >= MAX_PENDING) void this.flush();
    }
    if (changed && this.pending.size) this.scheduleSave();
    return changed;
  }

  async list(): Promise<AddressBookEntry[]> {
    const [stored, legacy] = await Promise.all([
      this.auth.fieldsOf(ENTRY_TYPE),
      this.auth.getKeys(LEGACY_TYPE, ['book']),
    ]);
    const names = new Map<string, ContactNames & { legacy?: string }>();
    for (const [number, name] of Object.entries((legacy.book ?? {}) as Record<string, string>))
      names.set(number, { legacy: name });
    for (const changes of [stored, this.writing ?? [], this.pending])
      for (const [number, change] of changes) names.set(number, { ...names.get(number), ...change });
    // the saved name first; a name of the old whole-book item may be either, so it ranks between
    return [...names].map(([number, n]) => ({ number, name: n.saved || n.legacy || n.push || number }));
  }

  /** Writes pending changes now; resolves once they are stored (a failed write is tried again until it is). */
  flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.writer && this.pending.size) this.writer = this.writeAll();
    return this.writer ?? Promise.resolve();
  }

  /** The session logged out: its changes go with its keys. */
  discard() {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.pending.clear();
  }

  private scheduleSave() {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => void this.flush(), this.saveDelayMs);
    this.saveTimer.unref?.();
  }

  // entered with changes pending, so it awaits before it ends: `writer` is set by then
  private async writeAll() {
    for (let attempt = 0; this.pending.size; ) {
      const batch = this.pending;
      this.pending = new Map();
      this.writing = batch;
      try {
        await this.auth.setFields(ENTRY_TYPE, batch as Map<string, Record<string, string>>);
        for (const [number, change] of batch) this.known.set(number, { ...this.known.get(number), ...change });
        attempt = 0;
      } catch (err) {
        // back with the pending ones; a name reported since is newer
        for (const [number, change] of batch) this.pending.set(number, { ...change, ...this.pending.get(number) });
        log.warn('saving the address book failed, retrying', {
          companyId: this.auth.companyId,
          whatsappId: this.auth.whatsappId,
          contacts: batch.size,
          error: (err as Error).message,
        });
        await new Promise((r) => setTimeout(r, backoff(attempt++, RETRY_BASE_MS, RETRY_CAP_MS)));
      } finally {
        this.writing = undefined;
      }
    }
    this.writer = undefined;
  }
}

/** The number and names of a reported contact, or undefined when it has no phone number. */
export function reportedNames(c: ReportedContact): { number: string; names: ContactNames } | undefined {
  const jid = c.phoneNumber?.endsWith(PN_SUFFIX) ? c.phoneNumber : c.id?.endsWith(PN_SUFFIX) ? c.id : undefined;
  if (!jid) return undefined;
  const number = jid.slice(0, -PN_SUFFIX.length).split(':')[0]!.replace(/\D/g, '');
  if (number.length < 8) return undefined;
  const saved = c.name?.trim() || undefined;
  const push = (c.notify || c.verifiedName)?.trim() || undefined;
  return { number, names: { saved, push } };
}
