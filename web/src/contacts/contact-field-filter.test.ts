import { describe, expect, test } from 'vitest';
import type { CustomField } from '#shared/schemas/custom-fields';
import { fieldFilterQuery, matchesFieldFilter } from './ContactFieldFilter';

const field = (key: string, type: CustomField['type'], options: string[] = []): CustomField => ({
  id: 1,
  companyId: 1,
  entity: 'contact',
  key,
  name: key,
  type,
  options,
  required: false,
  order: 1,
  createdAt: '',
  updatedAt: '',
});
const fields = [field('plano', 'list', ['Bronze', 'Ouro']), field('site', 'link'), field('vip', 'checkbox')];

describe('contacts list: custom field filter', () => {
  test('the query carries the value only once it fits its field (one being typed lists any value)', () => {
    expect(fieldFilterQuery(fields, null)).toEqual({});
    expect(fieldFilterQuery(fields, { field: 'plano', fieldValue: 'Ouro' })).toEqual({
      field: 'plano',
      fieldValue: 'Ouro',
    });
    expect(fieldFilterQuery(fields, { field: 'site', fieldValue: 'http' })).toEqual({ field: 'site' });
    expect(fieldFilterQuery(fields, { field: 'gone', fieldValue: 'x' })).toEqual({});
  });
  test('a contact from an event stays in the filtered list only when its field holds the value', () => {
    const f = { field: 'vip', fieldValue: 'true' };
    expect(matchesFieldFilter(fields, f, { customFields: { vip: true } })).toBe(true);
    expect(matchesFieldFilter(fields, f, { customFields: { vip: false } })).toBe(false);
    expect(matchesFieldFilter(fields, f, {})).toBe(false);
    expect(matchesFieldFilter(fields, { field: 'plano', fieldValue: '' }, { customFields: { plano: 'Ouro' } })).toBe(
      true,
    );
    expect(matchesFieldFilter(fields, null, {})).toBe(true);
  });
});
