import type { AddressBookEntry } from '#shared/whatsapp-protocol';
import type { AuthStore } from './auth-store';

/** What Baileys reports of a contact (contacts.upsert / contacts.update / history sync). */
export interface ReportedContact {
  id?: string;
  phoneNumber?: string;
  name?: string;
  notify?: string;
  verifiedName?: string;
}

const PN_SUFFIX = '@s.whatsapp.net';

/**
 * The phone's address book as WhatsApp reports it to a linked device: entries arrive in pieces
 * (the first history sync, then upserts and updates) and are never sent again, so they are kept
 * with the session's keys (type `address-book`), where a runner restart finds them. Only contacts
 * with a phone number are kept (groups, broadcast lists and @lid-only ids are not importable); the
 * name is the one saved on the phone, else the contact's own.
 */
export class AddressBook {
  private entries = new Map<string, string>();
  private loaded?: Promise<void>;
  private saveTimer?: NodeJS.Timeout;
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private auth: AuthStore,
    private saveDelayMs = 2_000,
  ) {}

  load() {
    this.loaded ??= this.auth.getKeys('address-book', ['book']).then((stored) => {
      const book = stored.book as Record<string, string> | undefined;
      // entries reported before the load finished win over the stored ones
      for (const [number, name] of Object.entries(book ?? {}))
        if (!this.entries.has(number)) this.entries.set(number, name);
    });
    return this.loaded;
  }

  /** Merges reported contacts; true when something changed (then a save follows shortly). */
  merge(contacts: ReportedContact[]): boolean {
    let changed = false;
    for (const c of contacts) {
      const entry = addressBookEntry(c);
      if (!entry) continue;
      const known = this.entries.get(entry.number);
      // an update without a name keeps the one we have
      const name = entry.name || known || entry.number;
      if (known === name) continue;
      this.entries.set(entry.number, name);
      changed = true;
    }
    if (changed) this.scheduleSave();
    return changed;
  }

  async list(): Promise<AddressBookEntry[]> {
    await this.load();
    return [...this.entries].map(([number, name]) => ({ number, name }));
  }

  /** Writes pending changes now (the session is closing). */
  async flush() {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      await this.save();
    }
    await this.saving;
  }

  private scheduleSave() {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, this.saveDelayMs);
    this.saveTimer.unref?.();
  }

  private save() {
    this.saving = this.saving
      .then(() => this.load())
      .then(() => this.auth.setKeys({ 'address-book': { book: Object.fromEntries(this.entries) } }))
      .catch(() => undefined);
    return this.saving;
  }
}

/** The number and name of a reported contact, or undefined when it has no phone number. */
export function addressBookEntry(c: ReportedContact): AddressBookEntry | undefined {
  const jid = c.phoneNumber?.endsWith(PN_SUFFIX) ? c.phoneNumber : c.id?.endsWith(PN_SUFFIX) ? c.id : undefined;
  if (!jid) return undefined;
  const number = jid.slice(0, -PN_SUFFIX.length).split(':')[0]!.replace(/\D/g, '');
  if (number.length < 8) return undefined;
  const name = (c.name || c.notify || c.verifiedName || '').trim();
  return { number, name };
}
