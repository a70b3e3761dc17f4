import { describe, it, expect } from 'vitest';
import { fillVariables, greetingFor } from './message-variables';

const now = new Date('2026-11-23T13:05:00Z'); // 10:05 in São Paulo, 13:05 UTC

describe('fillVariables', () => {
  it('fills {{name}} and {{firstName}} from the contact name', () => {
    expect(fillVariables('Olá {{firstName}}, ou melhor, {{name}}!', { contactName: '  Maria da Silva ', now })).toBe(
      'Olá Maria, ou melhor, Maria da Silva!',
    );
  });

  it('a variable named like a built-in property ({{constructor}}, {{__proto__}}) is no variable: it stays as written', () => {
    expect(fillVariables('a {{constructor}} b {{__proto__}}', { now })).toBe('a {{constructor}} b {{__proto__}}');
  });

  it('fills {{date}} as DD/MM/YYYY and {{hora}} as HH:mm in the given zone (São Paulo by default)', () => {
    expect(fillVariables('{{date}} {{hora}}', { now })).toBe('23/11/2026 10:05');
    expect(fillVariables('{{date}} {{hora}}', { now, timeZone: 'UTC' })).toBe('23/11/2026 13:05');
    // just after midnight UTC it is still the previous day in São Paulo
    expect(fillVariables('{{date}}', { now: new Date('2026-11-24T01:00:00Z') })).toBe('23/11/2026');
  });

  it('{{ms}} greets by the local hour', () => {
    expect(fillVariables('{{ms}}', { now })).toBe('Bom dia');
    expect(fillVariables('{{ms}}', { now, timeZone: 'UTC' })).toBe('Boa tarde');
    expect(greetingFor(5)).toBe('Boa madrugada');
    expect(greetingFor(6)).toBe('Bom dia');
    expect(greetingFor(12)).toBe('Boa tarde');
    expect(greetingFor(18)).toBe('Boa noite');
    expect(greetingFor(23)).toBe('Boa noite');
  });

  it('fills {{protocol}}, and empty strings for a missing contact name or protocol', () => {
    expect(fillVariables('#{{protocol}}', { now, protocol: 20261123123 })).toBe('#20261123123');
    expect(fillVariables('[{{name}}][{{firstName}}][{{protocol}}]', { now })).toBe('[][][]');
  });

  it('is case-insensitive in the variable name and leaves unknown variables as written', () => {
    expect(fillVariables('{{FIRSTNAME}} {{ firstname }} {{unknown}}', { contactName: 'João Souza', now })).toBe(
      'João João {{unknown}}',
    );
  });
});
