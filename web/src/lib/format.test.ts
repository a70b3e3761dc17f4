import { describe, expect, test } from 'vitest';
import { format as dateFnsFormat } from 'date-fns';
import { format, formatDate, formatDateTime, formatListStamp, formatBRL } from './format';
import { maskPhone } from './mask';

describe('formats (attendance.md section 9)', () => {
  test('dates as DD/MM/YYYY and HH:mm', () => {
    const local = new Date(2026, 10, 5, 9, 7);
    expect(formatDate(local)).toBe('05/11/2026');
    expect(formatDateTime(local)).toBe('05/11/2026 09:07');
    expect(formatDate(null)).toBe('');
  });
  test('ticket rows show the time today and the date otherwise', () => {
    const now = new Date(2026, 10, 5, 18, 0);
    expect(formatListStamp(new Date(2026, 10, 5, 9, 7).toISOString(), now)).toBe('09:07');
    expect(formatListStamp(new Date(2026, 10, 4, 9, 7).toISOString(), now)).toBe('04/11/2026');
  });
  test('currency is BRL', () => {
    expect(formatBRL(30).replace(/\s/g, ' ')).toBe('R$ 30,00');
  });
  test('phone mask (99) 99999-9999 keeps at most 11 digits', () => {
    expect(maskPhone('11987654321999')).toBe('(11) 98765-4321');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('(11')).toBe('(11');
    expect(maskPhone('abc')).toBe('');
  });
  test("the app's numeric patterns read as date-fns' format writes them, in local time", () => {
    const dates = [
      new Date(2026, 0, 5, 7, 3),
      new Date(1999, 11, 31, 23, 59),
      new Date(2030, 8, 9, 0, 0),
      new Date(2008, 1, 29, 12, 30),
    ];
    for (const d of dates)
      for (const pattern of ['dd/MM/yyyy', 'HH:mm', 'dd/MM/yyyy HH:mm', 'dd/MM/yy HH:mm', 'yyyy-MM-dd'])
        expect(format(d, pattern), `${pattern} ${d.toString()}`).toBe(dateFnsFormat(d, pattern));
  });
});
