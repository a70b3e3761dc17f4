import { describe, it, expect } from 'vitest';
import { fillVariables } from '../message-variables';
import {
  checkFieldValues,
  contactFieldValues,
  contactVariables,
  fieldKeyOf,
  fieldValueOf,
  readFieldValues,
  rowFieldValues,
  contactFieldCells,
  type CustomField,
} from './custom-fields';

let seq = 0;
const field = (over: Partial<CustomField>): CustomField => ({
  id: ++seq,
  companyId: 1,
  entity: 'contact',
  key: `f${seq}`,
  name: `F${seq}`,
  type: 'text',
  options: [],
  required: false,
  order: seq,
  createdAt: '',
  updatedAt: '',
  ...over,
});

describe('custom field values', () => {
  it('a key is made from the name: accents and spaces folded, starting with a letter', () => {
    expect(fieldKeyOf('Plano do Cliente')).toBe('plano_do_cliente');
    expect(fieldKeyOf('Licenças')).toBe('licencas');
    expect(fieldKeyOf('2 via')).toBe('f_2_via');
  });

  it('strict values from the API, loose ones from a spreadsheet', () => {
    const list = field({ type: 'list', options: ['Ouro', 'Prata'] });
    expect(fieldValueOf(list, 'ouro')).toEqual({ error: 'invalid' });
    expect(fieldValueOf(list, 'ouro', true)).toEqual({ value: 'Ouro' });
    const check = field({ type: 'checkbox' });
    expect(fieldValueOf(check, 'sim')).toEqual({ error: 'invalid' });
    expect(fieldValueOf(check, 'sim', true)).toEqual({ value: true });
    const date = field({ type: 'date' });
    expect(fieldValueOf(date, '31/12/2025')).toEqual({ error: 'invalid' });
    expect(fieldValueOf(date, '31/12/2025', true)).toEqual({ value: '2025-12-31' });
    expect(fieldValueOf(date, '2025-02-29')).toEqual({ error: 'invalid' });
    expect(fieldValueOf(field({ type: 'number' }), '1.234,5')).toEqual({ error: 'invalid' });
    expect(fieldValueOf(field({ type: 'number' }), '-3,5')).toEqual({ value: -3.5 });
    expect(fieldValueOf(field({ type: 'link' }), 'ftp://x.example')).toEqual({ error: 'invalid' });
  });

  it('a change is checked key by key; unknown keys and emptied required fields are named', () => {
    const req = field({ key: 'plan', required: true });
    const other = field({ key: 'note', entity: 'ticket' });
    const out = checkFieldValues([req, other], 'contact', { plan: 'x' }, { plan: '', note: 'y' });
    expect(out.issues).toEqual([
      { path: ['customFields', 'plan'], message: 'required' },
      { path: ['customFields', 'note'], message: 'unknown' },
    ]);
  });

  it('a value whose field is gone, or whose option was removed, is not read', () => {
    const list = field({ key: 'tier', type: 'list', options: ['A'] });
    expect(readFieldValues([list], 'contact', { tier: 'B', gone: 'x' })).toEqual({});
    expect(readFieldValues([list], 'contact', { tier: 'A' })).toEqual({ tier: 'A' });
  });

  it('extra info stands for the field of its name until the contact has a value of its own; the rest stays beside', () => {
    const plan = field({ key: 'plano', name: 'Plano', type: 'list', options: ['Ouro'] });
    const extra = [
      { name: 'plano', value: 'ouro' },
      { name: 'Obs', value: 'x' },
    ];
    expect(contactFieldValues([plan], { extraInfo: extra })).toEqual({
      values: { plano: 'Ouro' },
      otherInfo: [{ name: 'Obs', value: 'x' }],
    });
    // its own value wins, and the entry is shown as it was
    expect(contactFieldValues([plan], { extraInfo: extra, customFields: { plano: 'Ouro' } }).otherInfo).toHaveLength(2);
    expect(contactFieldValues([plan], { extraInfo: extra, customFields: { plano: 'Prata' } })).toEqual({
      values: {},
      otherInfo: extra,
    });
  });

  it('{{contact.<key>}} fills from the fields as text; unknown ones stay as written', () => {
    const since = field({ key: 'since', type: 'date' });
    const vip = field({ key: 'vip', type: 'checkbox' });
    const contactFields = contactVariables([since, vip], { customFields: { since: '2024-01-31', vip: true } });
    expect(
      fillVariables('{{ contact.since }} {{contact.vip}} {{contact.other}} {{name}}', {
        now: new Date('2026-01-01T12:00:00Z'),
        contactName: 'Ana',
        contactFields,
      }),
    ).toBe('31/01/2024 Sim {{contact.other}} Ana');
  });
});

describe('custom fields in spreadsheets', () => {
  const plan = field({ key: 'plano', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] });
  const seats = field({ key: 'licencas', name: 'Licenças', type: 'number' });
  const since = field({ key: 'cliente_desde', name: 'Cliente desde', type: 'date' });
  const vip = field({ key: 'vip', name: 'VIP', type: 'checkbox' });
  const onTicket = field({ key: 'motivo', name: 'Motivo', entity: 'ticket' });
  const all = [plan, seats, since, vip, onTicket];

  it('a column is found by the field key or name (accents, case, spacing ignored); values read loosely', () => {
    expect(
      rowFieldValues(all, { ' PLANO ': 'ouro', licencas: 3, 'cliente-desde': '31/12/2024', Vip: 'x', Motivo: 'y' }),
    ).toEqual({ values: { plano: 'Ouro', licencas: 3, cliente_desde: '2024-12-31', vip: true }, issues: [] });
  });

  it('an empty cell sets nothing; a value that does not fit is an issue naming the field, the others still count', () => {
    expect(
      rowFieldValues(all, { Plano: 'Platina', Licenças: '', 'Cliente desde': '2024-12-31', VIP: 'talvez' }),
    ).toEqual({
      values: { cliente_desde: '2024-12-31' },
      issues: [
        { key: 'plano', message: 'invalid' },
        { key: 'vip', message: 'invalid' },
      ],
    });
  });

  it('the export writes each contact field as text the import reads back (numbers stay numbers)', () => {
    const cells = contactFieldCells(all, {
      customFields: { licencas: -2.5, cliente_desde: '2024-02-29', vip: false },
      extraInfo: [{ name: 'plano', value: 'bronze' }],
    });
    expect(cells).toEqual(['Bronze', -2.5, '29/02/2024', 'Não']);
    const back = rowFieldValues(all, Object.fromEntries([plan, seats, since, vip].map((f, i) => [f.name, cells[i]])));
    expect(back.values).toEqual({ plano: 'Bronze', licencas: -2.5, cliente_desde: '2024-02-29', vip: false });
  });
});
