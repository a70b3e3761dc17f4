import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canSeeTicket, type TicketViewer } from '#shared/visibility';
import { fold, words, wordsAt } from './normalize';
import { matchesTerm, type ParsedQuery, type QueryTerm } from './query';
import type {
  Range,
  SearchDoc,
  SearchFilters,
  SearchHit,
  SearchPage,
  SearchPort,
  SearchRequest,
  TicketFacts,
} from './port';

/**
 * The embedded search index (local runs and tests): one inverted index per company, in memory,
 * persisted under the data folder as a snapshot plus a journal of the changes since.
 *
 * Why our own: MiniSearch and FlexSearch were measured at 500,000 messages (docs/search.md): both
 * score or intersect every match of a common word before they page, 230 ms to 1.2 s a query, and
 * neither orders by time. An inbox wants the newest matches first, so here a document's number is its
 * arrival order, each word's postings are ascending numbers, and a query walks the rarest term's
 * postings from the newest end, checking the other words, the filters and the viewer's visibility on
 * each candidate until the page is full: a page costs about what it skips, not what matches.
 *
 * Words of the contact's name and number belong to the ticket (kept once per ticket, changed in place
 * when the ticket's contact is renamed), and a document matches a word found in its text or its contact.
 */

interface StoredDoc {
  docId: string;
  kind: SearchDoc['kind'];
  sourceId: string;
  ticketId: number;
  text: string;
  createdAt: string;
}

interface Candidates {
  textLists: number[][];
  /** sets of ticket ids (a contact word's tickets) */
  tickets: Set<number>[];
  size: number;
}

interface TicketEntry {
  facts: TicketFacts;
  /** the ticket's documents, ascending */
  ords: number[];
  contactWords: string[];
}

/** A sorted vocabulary for prefix lookups: new words wait in `recent` until there are enough to merge. */
class Vocabulary {
  private sorted: string[] = [];
  private recent: string[] = [];
  add(word: string) {
    this.recent.push(word);
    if (this.recent.length > 2048) this.merge();
  }
  private merge() {
    this.sorted = [...this.sorted, ...this.recent].sort();
    this.recent = [];
  }
  /** every known word that starts with `prefix` */
  withPrefix(prefix: string): string[] {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++) out.push(this.sorted[i]!);
    for (const w of this.recent) if (w.startsWith(prefix)) out.push(w);
    return out;
  }
}

/** Inserts `n` into an ascending array (at the end when it is the largest, the common case). */
function insertSorted(arr: number[], n: number) {
  if (!arr.length || arr[arr.length - 1]! < n) return void arr.push(n);
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  if (arr[lo] !== n) arr.splice(lo, 0, n);
}

/** Whether an ascending array holds `n`. */
function holds(arr: number[], n: number) {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = arr[mid]!;
    if (v === n) return true;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Past this many postings (a short prefix's words), a term is checked on the text instead. */
const MAX_PRECHECK_LISTS = 16;

/** Walks several ascending arrays as one, largest first, below `below`, without repeats (a max-heap of heads). */
function* descending(lists: number[][], below: number): Generator<number> {
  const heads: { list: number[]; i: number }[] = [];
  for (const list of lists) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < below) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) heads.push({ list, i: lo - 1 });
  }
  const value = (h: { list: number[]; i: number }) => h.list[h.i]!;
  const down = (at: number) => {
    for (let i = at; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heads.length && value(heads[l]!) > value(heads[top]!)) top = l;
      if (r < heads.length && value(heads[r]!) > value(heads[top]!)) top = r;
      if (top === i) return;
      [heads[i], heads[top]] = [heads[top]!, heads[i]!];
      i = top;
    }
  };
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) down(i);
  let last = Number.POSITIVE_INFINITY;
  while (heads.length) {
    const head = heads[0]!;
    const n = value(head);
    if (n !== last) {
      yield n;
      last = n;
    }
    head.i--;
    if (head.i < 0) {
      heads[0] = heads[heads.length - 1]!;
      heads.pop();
    }
    if (heads.length) down(0);
  }
}

function rangesOf(text: string, terms: QueryTerm[]): Range[] {
  if (!text) return [];
  return wordsAt(text)
    .filter((w) => terms.some((t) => matchesTerm(w.word, t)))
    .map((w) => [w.start, w.end] as Range);
}

/** A phrase as an expression over folded text: its words in order, separated by non-word characters. */
function phraseExpression(phrase: QueryTerm[]): RegExp {
  // query words are letters and digits only (normalize.ts WORD): nothing to escape
  const body = phrase.map((t) => `${t.word}${t.prefix ? '[\\p{L}\\p{N}]*' : ''}`).join('[^\\p{L}\\p{N}]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
}

class CompanyIndex {
  docs: (StoredDoc | undefined)[] = [];
  byDocId = new Map<string, number>();
  postings = new Map<string, number[]>();
  vocabulary = new Vocabulary();
  tickets = new Map<number, TicketEntry>();
  /** contact word -> tickets whose contact has it */
  contactPostings = new Map<string, Set<number>>();
  contactVocabulary = new Vocabulary();

  private post(word: string, ord: number) {
    let list = this.postings.get(word);
    if (!list) {
      list = [];
      this.postings.set(word, list);
      this.vocabulary.add(word);
    }
    insertSorted(list, ord);
  }

  private setContactWords(entry: TicketEntry, name: string, number: string) {
    for (const w of entry.contactWords) this.contactPostings.get(w)?.delete(entry.facts.ticketId);
    entry.contactWords = [...new Set([...words(name), ...words(number)])];
    for (const w of entry.contactWords) {
      let set = this.contactPostings.get(w);
      if (!set) {
        set = new Set();
        this.contactPostings.set(w, set);
        this.contactVocabulary.add(w);
      }
      set.add(entry.facts.ticketId);
    }
  }

  setTicket(facts: TicketFacts) {
    let entry = this.tickets.get(facts.ticketId);
    if (!entry) {
      entry = { facts, ords: [], contactWords: [] };
      this.tickets.set(facts.ticketId, entry);
    }
    const renamed = entry.contactWords.length === 0 || entry.facts.contactName !== facts.contactName;
    const renumbered = entry.facts.contactNumber !== facts.contactNumber;
    entry.facts = { ...facts, tagIds: [...facts.tagIds] };
    if (renamed || renumbered) this.setContactWords(entry, facts.contactName, facts.contactNumber);
    return entry;
  }

  add(doc: SearchDoc) {
    const entry = this.setTicket(doc);
    const stored: StoredDoc = {
      docId: doc.docId,
      kind: doc.kind,
      sourceId: doc.sourceId,
      ticketId: doc.ticketId,
      text: doc.text,
      createdAt: doc.createdAt,
    };
    const existing = this.byDocId.get(doc.docId);
    // an edit keeps the document's place in time; stale postings are harmless (candidates are checked)
    const ord = existing ?? this.docs.length;
    this.docs[ord] = stored;
    this.byDocId.set(doc.docId, ord);
    for (const w of new Set(words(doc.text))) this.post(w, ord);
    insertSorted(entry.ords, ord);
  }

  remove(docId: string) {
    const ord = this.byDocId.get(docId);
    if (ord === undefined) return;
    const doc = this.docs[ord];
    this.docs[ord] = undefined;
    this.byDocId.delete(docId);
    const entry = doc && this.tickets.get(doc.ticketId);
    if (entry) {
      const i = entry.ords.indexOf(ord);
      if (i >= 0) entry.ords.splice(i, 1);
    }
  }

  /**
   * The documents that may hold a term: the postings of its words (text), and the tickets whose
   * contact has it (all their documents match; the index's own sets, not copied). `size` is exact
   * for the text and estimated for the contacts (tickets x documents per ticket), enough to pick the
   * rarest term.
   */
  private candidates(term: QueryTerm): Candidates {
    const textWords = term.prefix ? this.vocabulary.withPrefix(term.word) : [term.word];
    const textLists: number[][] = [];
    let size = 0;
    for (const w of textWords) {
      const list = this.postings.get(w);
      if (list?.length) {
        textLists.push(list);
        size += list.length;
      }
    }
    const contactWords = term.prefix ? this.contactVocabulary.withPrefix(term.word) : [term.word];
    const tickets: Set<number>[] = [];
    const perTicket = this.byDocId.size / Math.max(1, this.tickets.size);
    for (const w of contactWords) {
      const set = this.contactPostings.get(w);
      if (set?.size) {
        tickets.push(set);
        size += set.size * perTicket;
      }
    }
    return { textLists, tickets, size };
  }

  /** The driving term's documents as ascending lists (its postings and its contacts' tickets'). */
  private listsOf(c: Candidates): number[][] {
    const lists = [...c.textLists];
    const seen = new Set<number>();
    for (const set of c.tickets)
      for (const ticketId of set) {
        if (c.tickets.length > 1 && seen.has(ticketId)) continue;
        seen.add(ticketId);
        const ords = this.tickets.get(ticketId)?.ords;
        if (ords?.length) lists.push(ords);
      }
    return lists;
  }

  search(q: ParsedQuery, filters: SearchFilters, viewer: TicketViewer, limit: number, below: number): SearchPage {
    if (!q.terms.length) return { hits: [] };
    const sets = q.terms.map((t) => this.candidates(t));
    const driving = sets.reduce((a, b) => (b.size < a.size ? b : a));
    // the other words rule a candidate out before its text is read: by binary search in their
    // postings, or its ticket among their contacts' (a prefix spread over many words is left to the text)
    const others = sets.filter((s) => s !== driving && s.textLists.length <= MAX_PRECHECK_LISTS);
    // phrases are checked on the folded text with one expression each; words outside them one by one
    const phrases = q.phrases.map(phraseExpression);
    const inPhrase = new Set(q.phrases.flat());
    const loose = q.terms.filter((t) => !inPhrase.has(t));
    const visible = new Map<number, boolean>();
    const ticketPasses = (ticketId: number) => {
      let ok = visible.get(ticketId);
      if (ok === undefined) {
        const facts = this.tickets.get(ticketId)?.facts;
        ok = Boolean(facts) && passesTicketFilters(facts!, filters) && canSeeTicket(viewer, facts!);
        visible.set(ticketId, ok);
      }
      return ok;
    };
    const hits: SearchHit[] = [];
    let lastOrd = -1;
    for (const ord of descending(this.listsOf(driving), below)) {
      const doc = this.docs[ord];
      if (!doc || !ticketPasses(doc.ticketId)) continue;
      if (filters.kind && doc.kind !== filters.kind) continue;
      if (filters.from && doc.createdAt < filters.from) continue;
      if (filters.to && doc.createdAt > filters.to) continue;
      if (
        !others.every(
          (s) => s.tickets.some((set) => set.has(doc.ticketId)) || s.textLists.some((list) => holds(list, ord)),
        )
      )
        continue;
      const entry = this.tickets.get(doc.ticketId)!;
      if (phrases.length) {
        const text = fold(doc.text);
        const name = fold(entry.facts.contactName);
        if (!phrases.every((re) => re.test(text) || re.test(name))) continue;
      }
      if (loose.length) {
        const textWords = words(doc.text);
        const inText = (t: QueryTerm) => textWords.some((w) => matchesTerm(w, t));
        const inContact = (t: QueryTerm) => entry.contactWords.some((w) => matchesTerm(w, t));
        if (!loose.every((t) => inText(t) || inContact(t))) continue;
      }
      if (hits.length === limit) return { hits, next: String(lastOrd) };
      hits.push({
        doc: { ...entry.facts, ...doc, companyId: 0 },
        highlights: {
          text: rangesOf(doc.text, q.terms),
          contactName: rangesOf(entry.facts.contactName, q.terms),
          contactNumber: rangesOf(entry.facts.contactNumber, q.terms),
        },
      });
      lastOrd = ord;
    }
    return { hits };
  }

  *dump(companyId: number): Generator<unknown> {
    for (const entry of this.tickets.values()) yield { op: 'ticket', companyId, facts: entry.facts };
    for (const doc of this.docs) if (doc) yield { op: 'doc', companyId, doc };
  }
}

function passesTicketFilters(t: TicketFacts, f: SearchFilters) {
  if (f.queueIds?.length && (t.queueId === null || !f.queueIds.includes(t.queueId))) return false;
  if (f.userIds?.length && (t.userId === null || !f.userIds.includes(t.userId))) return false;
  if (f.whatsappIds?.length && !f.whatsappIds.includes(t.whatsappId)) return false;
  if (f.statuses?.length && !f.statuses.includes(t.status)) return false;
  if (f.tagIds?.length && !t.tagIds.some((id) => f.tagIds!.includes(id))) return false;
  return true;
}

type JournalEntry =
  | { op: 'doc'; companyId: number; doc: StoredDoc }
  | { op: 'index'; docs: SearchDoc[] }
  | { op: 'remove'; companyId: number; docIds: string[] }
  | { op: 'ticket'; companyId: number; facts: TicketFacts }
  | { op: 'clear'; companyId: number };

const SNAPSHOT = 'snapshot.jsonl';
const JOURNAL = 'journal.jsonl';
/** a journal that grew past this is folded into a new snapshot */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

/**
 * The embedded adapter. `dir`: where it persists (`<DATA_DIR>/search`); omitted, it lives in memory
 * only (tests). Changes reach the journal within FLUSH_MS; a start loads the snapshot, replays the
 * journal and compacts both into a new snapshot.
 */
export class MemorySearch implements SearchPort {
  private companies = new Map<number, CompanyIndex>();
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private journalBytes = 0;

  constructor(private readonly dir?: string) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    for (const file of [SNAPSHOT, JOURNAL]) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      for (const line of readFileSync(path, 'utf8').split('\n')) if (line) this.apply(JSON.parse(line));
    }
    this.compact();
  }

  private company(companyId: number) {
    let index = this.companies.get(companyId);
    if (!index) {
      index = new CompanyIndex();
      this.companies.set(companyId, index);
    }
    return index;
  }

  private apply(e: JournalEntry) {
    switch (e.op) {
      case 'doc': {
        const index = this.company(e.companyId);
        const entry = index.tickets.get(e.doc.ticketId);
        if (entry) index.add({ ...entry.facts, ...e.doc, companyId: e.companyId });
        return;
      }
      case 'index':
        for (const doc of e.docs) this.company(doc.companyId).add(doc);
        return;
      case 'remove':
        for (const id of e.docIds) this.companies.get(e.companyId)?.remove(id);
        return;
      case 'ticket':
        return void this.company(e.companyId).setTicket(e.facts);
      case 'clear':
        return void this.companies.delete(e.companyId);
    }
  }

  private record(e: JournalEntry) {
    this.apply(e);
    if (!this.dir) return;
    this.pending.push(JSON.stringify(e));
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Writes what is pending to the journal (compacting when it grew large). */
  flush() {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.dir || !this.pending.length) return;
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    appendFileSync(join(this.dir, JOURNAL), chunk);
    this.journalBytes += chunk.length;
    if (this.journalBytes > COMPACT_AFTER_BYTES) this.compact();
  }

  /** Folds the journal into a fresh snapshot (written aside, then renamed over the old one). */
  compact() {
    if (!this.dir) return;
    this.pending = [];
    const tmp = join(this.dir, `${SNAPSHOT}.tmp`);
    writeFileSync(tmp, '');
    let chunk: string[] = [];
    for (const [companyId, index] of this.companies)
      for (const e of index.dump(companyId)) {
        chunk.push(JSON.stringify(e));
        if (chunk.length === 10_000) {
          appendFileSync(tmp, `${chunk.join('\n')}\n`);
          chunk = [];
        }
      }
    if (chunk.length) appendFileSync(tmp, `${chunk.join('\n')}\n`);
    renameSync(tmp, join(this.dir, SNAPSHOT));
    writeFileSync(join(this.dir, JOURNAL), '');
    this.journalBytes = 0;
  }

  /** Bytes on disk (snapshot and journal). */
  sizeOnDisk() {
    if (!this.dir) return 0;
    return [SNAPSHOT, JOURNAL].reduce(
      (n, f) => n + (existsSync(join(this.dir!, f)) ? statSync(join(this.dir!, f)).size : 0),
      0,
    );
  }

  close() {
    this.flush();
  }

  async index(docs: SearchDoc[]) {
    if (docs.length) this.record({ op: 'index', docs });
  }
  async remove(companyId: number, docIds: string[]) {
    if (docIds.length) this.record({ op: 'remove', companyId, docIds });
  }
  async updateTicket(companyId: number, facts: TicketFacts) {
    this.record({ op: 'ticket', companyId, facts });
  }
  async clear(companyId: number) {
    this.record({ op: 'clear', companyId });
  }
  async search(r: SearchRequest): Promise<SearchPage> {
    const index = this.companies.get(r.companyId);
    if (!index) return { hits: [] };
    const below = r.after !== undefined && /^\d+$/.test(r.after) ? Number(r.after) : Number.POSITIVE_INFINITY;
    const page = index.search(r.query, r.filters, r.viewer, r.limit, below);
    for (const hit of page.hits) hit.doc.companyId = r.companyId;
    return page;
  }
}

const FLUSH_MS = 200;
