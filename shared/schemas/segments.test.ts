import { describe, expect, test } from 'vitest';
import type { CustomField } from './custom-fields';
import { checkSegmentFields, contactMatchesSegment, type SegmentCondition } from './segments';

const field = (key: string, type: CustomField['type'], options: string[] = []): CustomField => ({
  id: key.length,
  companyId: 1,
  entity: 'contact',
  key,
  name: key,
  type,
  options,
  required: false,
  order: 0,
  createdAt: '',
  updatedAt: '',
});
const fields = [
  field('plano', 'list', ['Bronze', 'Ouro']),
  field('seats', 'number'),
  field('since', 'date'),
  field('note', 'text'),
  field('vip', 'checkbox'),
];
const ana = {
  name: 'Ána Souza',
  number: '5511999990001',
  customFields: { plano: 'Ouro', seats: 12, since: '2024-05-01', note: 'Cliente Antigo', vip: true },
  extraInfo: [],
};
const is = (...conditions: SegmentCondition[]) => contactMatchesSegment({ conditions }, ana, fields);

describe('contactMatchesSegment: every condition holds', () => {
  test('field operators by type: eq (accents and case ignored), neq, contains, gt and lt on numbers and dates', () => {
    expect(is({ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' })).toBe(true);
    expect(is({ type: 'field', key: 'note', op: 'eq', value: 'cliente antigo' })).toBe(true);
    expect(is({ type: 'field', key: 'plano', op: 'neq', value: 'Ouro' })).toBe(false);
    expect(is({ type: 'field', key: 'note', op: 'contains', value: 'ANTI' })).toBe(true);
    expect(is({ type: 'field', key: 'seats', op: 'gt', value: 11 })).toBe(true);
    expect(is({ type: 'field', key: 'seats', op: 'gt', value: 12 })).toBe(false);
    expect(is({ type: 'field', key: 'since', op: 'lt', value: '2024-06-01' })).toBe(true);
    expect(is({ type: 'field', key: 'vip', op: 'eq', value: true })).toBe(true);
  });
  test('empty and not_empty; a field no longer defined is empty; neq holds for an empty value', () => {
    const bare = { name: 'Bob', number: '1', customFields: { gone: 'x' } };
    const match = (c: SegmentCondition) => contactMatchesSegment({ conditions: [c] }, bare, fields);
    expect(match({ type: 'field', key: 'plano', op: 'empty' })).toBe(true);
    expect(match({ type: 'field', key: 'gone', op: 'empty' })).toBe(true);
    expect(match({ type: 'field', key: 'plano', op: 'not_empty' })).toBe(false);
    expect(match({ type: 'field', key: 'plano', op: 'neq', value: 'Ouro' })).toBe(true);
  });
  test("extra info a field claims counts as the field's value", () => {
    const old = { name: 'Old', number: '1', extraInfo: [{ name: 'Plano', value: 'ouro' }] };
    expect(
      contactMatchesSegment({ conditions: [{ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' }] }, old, fields),
    ).toBe(true);
  });
  test('name contains, number starts with or contains, tags by any of their ids (none known: no match), all together', () => {
    expect(is({ type: 'name', op: 'contains', value: 'ana sou' })).toBe(true);
    expect(is({ type: 'number', op: 'starts_with', value: '5511' })).toBe(true);
    expect(is({ type: 'number', op: 'starts_with', value: '9999' })).toBe(false);
    expect(is({ type: 'number', op: 'contains', value: '9999' })).toBe(true);
    expect(is({ type: 'tag', ids: [3] })).toBe(false);
    expect(contactMatchesSegment({ conditions: [{ type: 'tag', ids: [3, 4] }] }, { ...ana, tagIds: [4] }, fields)).toBe(
      true,
    );
    expect(
      is({ type: 'name', op: 'contains', value: 'ana' }, { type: 'field', key: 'plano', op: 'eq', value: 'Bronze' }),
    ).toBe(false);
  });
});

describe('checkSegmentFields', () => {
  test("values are read as their field's type; unknown keys, operators a type does not answer and bad values are issues", () => {
    const { conditions, issues } = checkSegmentFields(fields, [
      { type: 'field', key: 'seats', op: 'gt', value: '10,5' },
      { type: 'field', key: 'since', op: 'lt', value: '31/12/2025' },
      { type: 'field', key: 'plano', op: 'eq', value: 'ouro' },
      { type: 'field', key: 'nope', op: 'eq', value: 'x' },
      { type: 'field', key: 'vip', op: 'gt', value: true },
      { type: 'field', key: 'seats', op: 'eq', value: 'many' },
    ]);
    expect(conditions.slice(0, 3).map((c) => (c as { value: unknown }).value)).toEqual([10.5, '2025-12-31', 'Ouro']);
    expect(issues).toEqual([
      { path: ['conditions', 3, 'key'], message: 'unknown' },
      { path: ['conditions', 4, 'op'], message: 'invalid' },
      { path: ['conditions', 5, 'value'], message: 'invalid' },
    ]);
  });
});
