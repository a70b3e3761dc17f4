import { describe, expect, test } from 'vitest';
import type { ContactListItem } from '#shared/schemas/contact-lists';
import {
  checksNotice,
  concernsList,
  importError,
  isSpreadsheet,
  mergeLive,
  overlayLive,
  validity,
} from './contact-list-rules';

describe('contact list rules', () => {
  test('the import takes .xls and .xlsx only', () => {
    expect(isSpreadsheet('list.xlsx')).toBe(true);
    expect(isSpreadsheet('LIST.XLS')).toBe(true);
    expect(isSpreadsheet('list.csv')).toBe(false);
    expect(isSpreadsheet('list.xlsx.pdf')).toBe(false);
  });

  test('the WhatsApp icon: valid, invalid, or not checked yet', () => {
    expect(validity({ isWhatsappValid: true })).toBe('valid');
    expect(validity({ isWhatsappValid: false })).toBe('invalid');
    expect(validity({ isWhatsappValid: null })).toBe('unchecked');
  });

  test('refused import rows are read as a code, a field message or plain text', () => {
    expect(importError('ERR_DUPLICATED_CONTACT')).toEqual({ kind: 'code', code: 'ERR_DUPLICATED_CONTACT' });
    expect(importError('number: short')).toEqual({ kind: 'field', field: 'number', message: 'short' });
    expect(importError('something odd')).toEqual({ kind: 'text', text: 'something odd' });
  });

  test('live item events of another list are ignored', () => {
    expect(concernsList({ record: { contactListId: 2 } }, 2)).toBe(true);
    expect(concernsList({ record: { contactListId: 3 } }, 2)).toBe(false);
    expect(concernsList({ contactListId: 3 }, 2)).toBe(false);
    expect(concernsList({}, 2)).toBe(true);
  });

  test('a live check newer than the fetched row wins; an older one never undoes it', () => {
    const item = (over: Partial<ContactListItem>): ContactListItem => ({
      id: 1,
      companyId: 1,
      contactListId: 1,
      name: 'Eva',
      number: '5521911110005',
      email: '',
      isWhatsappValid: null,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
      ...over,
    });
    const checked = item({ isWhatsappValid: true, updatedAt: '2030-01-01T00:00:01.000Z' });
    let live = mergeLive(new Map(), [checked]);
    // a reload that read the row before its check does not hide the check
    expect(overlayLive([item({})], live)[0].isWhatsappValid).toBe(true);
    // a stale event does not replace a newer one
    live = mergeLive(live, [item({ isWhatsappValid: false })]);
    expect(live.get(1)?.isWhatsappValid).toBe(true);
    // a row fetched after a newer change keeps its own data
    const edited = item({ name: 'Eva M', isWhatsappValid: true, updatedAt: '2030-01-01T00:00:05.000Z' });
    expect(overlayLive([edited], live)[0].name).toBe('Eva M');
  });

  test('the page tells how many number checks the connection has left today, or why they wait', () => {
    const numberChecks = { whatsappId: 1, whatsappName: 'Sales', dailyBudget: 200, checksLeftToday: 37 };
    expect(checksNotice({ numberChecks })).toEqual({
      severity: 'info',
      key: 'items.checks.left',
      values: { count: 37, budget: 200, connection: 'Sales' },
    });
    expect(checksNotice({ numberChecks: { ...numberChecks, checksLeftToday: 0 } })?.severity).toBe('warning');
    const waiting = checksNotice({
      numberChecks,
      checksWaitReason: 'reachoutLock',
      checksResumeAt: '2026-11-23T03:00:00.000Z',
    });
    expect(waiting).toMatchObject({ severity: 'warning', key: 'items.checks.wait.reachoutLock' });
    expect(checksNotice({ numberChecks: null })).toBeNull();
  });
});
