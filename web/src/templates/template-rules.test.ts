import { describe, expect, test } from 'vitest';
import type { TemplateParameter, WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import {
  allFilled,
  applyTemplateEvent,
  eventConnection,
  matchTemplates,
  prefillValues,
  statusColor,
  templateSendInput,
  valuesByComponent,
} from './template-rules';

const template = (over: Partial<WhatsappTemplate> = {}): WhatsappTemplate => ({
  id: '901',
  whatsappId: 7,
  name: 'order_update',
  language: 'pt_BR',
  category: 'UTILITY',
  status: 'APPROVED',
  header: 'Pedido {{1}}',
  body: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.',
  buttons: [],
  parameterFormat: 'positional',
  parameters: [
    { component: 'header', name: '1' },
    { component: 'body', name: '1', example: 'Maria' },
    { component: 'body', name: '2', example: '#123' },
  ],
  updatedAt: '2027-01-01T00:00:00.000Z',
  ...over,
});

const named = (...names: string[]): TemplateParameter[] => names.map((name) => ({ component: 'body', name }));

describe('template picker rules', () => {
  test('a named parameter whose name says so starts as the message variable; positional ones start empty', () => {
    expect(
      prefillValues([
        ...named('name', 'Nome', 'customer_name', 'first_name', 'firstname', 'primeiro_nome'),
        ...named('protocol', 'protocolo', 'ticket', 'order', '1'),
        { component: 'header', name: 'nome' },
      ]),
    ).toEqual({
      'body:name': '{{name}}',
      'body:Nome': '{{name}}',
      'body:customer_name': '{{name}}',
      'body:first_name': '{{firstName}}',
      'body:firstname': '{{firstName}}',
      'body:primeiro_nome': '{{firstName}}',
      'body:protocol': '{{protocol}}',
      'body:protocolo': '{{protocol}}',
      'body:ticket': '{{protocol}}',
      'body:order': '',
      'body:1': '',
      'header:nome': '{{name}}',
    });
  });

  test('a template can be sent only once every variable has a value that is not blank', () => {
    const { parameters } = template();
    expect(allFilled(parameters, { 'header:1': '#123', 'body:1': 'Maria', 'body:2': '#123' })).toBe(true);
    expect(allFilled(parameters, { 'header:1': '#123', 'body:1': 'Maria', 'body:2': '  ' })).toBe(false);
    // the header's {{1}} is not the body's {{1}}
    expect(allFilled(parameters, { 'body:1': 'Maria', 'body:2': '#123' })).toBe(false);
    expect(allFilled([], {})).toBe(true);
  });

  test('the values go out by component and name, trimmed, with no empty component', () => {
    const t = template({ header: undefined, parameters: named('first_name', 'order') });
    expect(templateSendInput(t, { 'body:first_name': ' {{firstName}} ', 'body:order': '#123' })).toEqual({
      name: 'order_update',
      language: 'pt_BR',
      body: { first_name: '{{firstName}}', order: '#123' },
    });
    expect(templateSendInput(template({ parameters: [] }), {})).toEqual({ name: 'order_update', language: 'pt_BR' });
  });

  test('a blank value is left out, so the preview shows its variable as written', () => {
    expect(valuesByComponent(template().parameters, { 'header:1': '#9', 'body:1': ' ', 'body:2': '#9' })).toEqual({
      header: { 1: '#9' },
      body: { 2: '#9' },
    });
  });

  test('the search matches a name or a text, ignoring case', () => {
    const list = [template(), template({ id: '2', name: 'welcome', body: 'Bem-vindo à Loja' })];
    expect(matchTemplates(list, ' LOJA ').map((t) => t.name)).toEqual(['welcome']);
    expect(matchTemplates(list, 'ORDER').map((t) => t.name)).toEqual(['order_update']);
    expect(matchTemplates(list, '')).toHaveLength(2);
  });

  test('a status is green when approved, amber while in review, red when refused or stopped, grey otherwise', () => {
    expect(statusColor('APPROVED')).toBe('success');
    expect(['PENDING', 'IN_APPEAL'].map(statusColor)).toEqual(['warning', 'warning']);
    expect(['REJECTED', 'PAUSED', 'DISABLED'].map(statusColor)).toEqual(['error', 'error', 'error']);
    expect(['ARCHIVED', 'PENDING_DELETION', 'LIMIT_EXCEEDED'].map(statusColor)).toEqual([
      'default',
      'default',
      'default',
    ]);
  });

  test("a template event updates or removes one template in its connection's cached list", () => {
    const list = [template(), template({ id: '902', name: 'welcome' })];
    const paused = template({ status: 'PAUSED', reason: 'Low quality' });
    expect(eventConnection({ action: 'update', template: paused })).toBe(7);
    expect(eventConnection({ action: 'reload', whatsappId: 8 })).toBe(8);
    expect(applyTemplateEvent(list, { action: 'update', template: paused }).map((t) => t.status)).toEqual([
      'PAUSED',
      'APPROVED',
    ]);
    expect(applyTemplateEvent(list, { action: 'update', template: template({ id: '903' }) })).toHaveLength(3);
    expect(applyTemplateEvent(list, { action: 'delete', whatsappId: 7, id: '901' }).map((t) => t.id)).toEqual(['902']);
  });
});
