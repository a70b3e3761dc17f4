import { describe, expect, test } from 'vitest';
import { formatActor, formatTarget, formatValue, summarizeChanges } from './audit-format';

/** A translator that answers the key (or its default), so the tests read what the page asks for. */
const t = (key: string, options?: Record<string, unknown>) =>
  key.startsWith('fields.') || key.startsWith('targets.') || key.startsWith('ops.')
    ? String(options?.defaultValue ?? key)
    : key;

describe('audit page wording', () => {
  test('a change reads "field: from → to", a creation "field: to", a detail "field: value"', () => {
    expect(
      summarizeChanges({ value: { from: 10, to: 49.9 }, name: { to: 'Gold' }, rows: 3, op: 'updated' }, t),
    ).toEqual(['updated', 'name: Gold', 'rows: 3', 'value: 10 → 49.9']);
  });
  test("an import's source is a code shown in words; a list of names is joined", () => {
    expect(summarizeChanges({ source: 'spreadsheet', features: { to: ['useKanban', 'useOpenAi'] } }, t)).toEqual([
      'features: useKanban, useOpenAi',
      'source: codes.spreadsheet',
    ]);
  });
  test('the credentials an edit changed are codes shown in words, never values', () => {
    expect(summarizeChanges({ changedFields: ['accessToken', 'appSecret'] }, t)).toEqual([
      'changedFields: codes.accessToken, codes.appSecret',
    ]);
  });
  test('empty values are a dash, booleans words, long values cut', () => {
    expect(formatValue(null, t)).toBe('—');
    expect(formatValue('', t)).toBe('—');
    expect(formatValue(true, t)).toBe('values.yes');
    const long = formatValue('x'.repeat(200), t);
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    expect(formatValue({ search: 'ana' }, t)).toBe('{"search":"ana"}');
  });
  test('no changes, no lines', () => {
    expect(summarizeChanges(null, t)).toEqual([]);
  });
  test('targets: named, numbered, or a whole collection', () => {
    expect(formatTarget({ type: 'plan', id: 3, name: 'Gold' }, t)).toBe('plan "Gold"');
    expect(formatTarget({ type: 'connection', id: 7 }, t)).toBe('connection #7');
    expect(formatTarget({ type: 'contacts', id: 'all' }, t)).toBe('contacts');
    expect(formatTarget(null, t)).toBe('—');
  });
  test('the actor is the recorded name, else the id, else anonymous', () => {
    expect(formatActor({ actorId: 2, actorName: 'Ana' }, t)).toBe('Ana');
    expect(formatActor({ actorId: 2, actorName: null }, t)).toBe('#2');
    expect(formatActor({ actorId: null, actorName: null }, t)).toBe('anonymous');
  });
});
