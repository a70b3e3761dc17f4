import { describe, expect, it } from 'vitest';
import type { Contact } from '#shared/schemas/contacts';
import { mergedContact } from './merge';

const contact = (fields: Partial<Contact> & { id: number }): Contact => ({
  uuid: `u${fields.id}`,
  companyId: 1,
  name: 'Someone',
  number: '',
  email: '',
  profilePicUrl: '',
  isGroup: false,
  extraInfo: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('the kept contact after a merge', () => {
  it("keeps its own values; the other's custom fields join, a conflicting one under the other's id", () => {
    const keep = contact({
      id: 1,
      name: 'Ana Lima',
      number: '5511987654321',
      email: 'ana@keep.dev',
      extraInfo: [
        { name: 'plan', value: 'gold' },
        { name: 'city', value: 'Recife' },
      ],
    });
    const other = contact({
      id: 7,
      name: 'Ana L.',
      number: '551187654321',
      email: 'ana@other.dev',
      extraInfo: [
        { name: 'plan', value: 'silver' },
        { name: 'city', value: 'Recife' },
        { name: 'vip', value: 'yes' },
      ],
    });
    const out = mergedContact(keep, other);
    expect(out.name).toBe('Ana Lima');
    expect(out.number).toBe('5511987654321');
    expect(out.email).toBe('ana@keep.dev');
    expect(out.extraInfo).toEqual([
      { name: 'plan', value: 'gold' },
      { name: 'city', value: 'Recife' },
      { name: 'plan (#7)', value: 'silver' },
      { name: 'vip', value: 'yes' },
      { name: 'name (#7)', value: 'Ana L.' },
      { name: 'email', value: 'ana@other.dev' },
    ]);
    // the other's number keeps leading to the kept contact
    expect(out.mergedNumbers).toEqual(['551187654321']);
  });

  it("a kept contact named after its number or lid takes the other's name; a missing number, lid or e-mail is taken", () => {
    const keep = contact({ id: 2, name: '998877', number: '', lid: '998877', lidPn: '5511911112222' });
    const other = contact({ id: 3, name: 'Bruno', number: '5511911112222', email: 'b@x.dev', lid: undefined });
    const out = mergedContact(keep, other);
    expect(out).toMatchObject({ name: 'Bruno', number: '5511911112222', lid: '998877', email: 'b@x.dev' });
    expect(out.lidPn).toBeUndefined();
    expect(out.mergedNumbers).toBeUndefined();
    expect(out.extraInfo).toEqual([]);
  });

  it('aliases of earlier merges carry over, and a lid of the other becomes an alias when the kept contact has its own', () => {
    const keep = contact({
      id: 4,
      name: 'Caio',
      number: '5511900000001',
      lid: '111',
      mergedNumbers: ['5511900000009'],
    });
    const other = contact({ id: 5, name: 'Caio', number: '5511900000002', lid: '222', mergedLids: ['333'] });
    const out = mergedContact(keep, other);
    expect(out.mergedNumbers?.sort()).toEqual(['5511900000002', '5511900000009']);
    expect(out.mergedLids?.sort()).toEqual(['222', '333']);
    expect(out.lid).toBe('111');
  });
});
