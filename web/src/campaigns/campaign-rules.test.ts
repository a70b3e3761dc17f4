import { describe, expect, test } from 'vitest';
import type { WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import {
  addVariable,
  audienceOf,
  canCancel,
  canDelete,
  canRestart,
  findTemplate,
  insertAt,
  isEditable,
  parseSettings,
  progressPercent,
  templateErrors,
  templateFieldValues,
} from './campaign-rules';

const now = Date.parse('2030-01-01T12:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('campaign rules (management.md 4, 5, 9)', () => {
  test('editable while INATIVA or CANCELADA, or PROGRAMADA more than 1 hour ahead', () => {
    expect(isEditable(null, now)).toBe(true);
    expect(isEditable({ status: 'INATIVA', scheduledAt: null }, now)).toBe(true);
    expect(isEditable({ status: 'CANCELADA', scheduledAt: at(-1000) }, now)).toBe(true);
    expect(isEditable({ status: 'PROGRAMADA', scheduledAt: at(61 * 60_000) }, now)).toBe(true);
    expect(isEditable({ status: 'PROGRAMADA', scheduledAt: at(60 * 60_000) }, now)).toBe(false);
    expect(isEditable({ status: 'PROGRAMADA', scheduledAt: at(30 * 60_000) }, now)).toBe(false);
    expect(isEditable({ status: 'EM_ANDAMENTO', scheduledAt: null }, now)).toBe(false);
    expect(isEditable({ status: 'FINALIZADA', scheduledAt: null }, now)).toBe(false);
    expect(isEditable({ status: 'PAUSADA', scheduledAt: null }, now)).toBe(false);
  });

  test('cancel while running, scheduled or paused; restart a canceled or paused one; never delete a running one', () => {
    expect(canCancel('EM_ANDAMENTO')).toBe(true);
    expect(canCancel('FINALIZADA')).toBe(false);
    expect(canCancel('INATIVA')).toBe(false);
    expect(canRestart('CANCELADA')).toBe(true);
    expect(canRestart('PAUSADA')).toBe(true);
    expect(canRestart('EM_ANDAMENTO')).toBe(false);
    expect(canDelete('EM_ANDAMENTO')).toBe(false);
    expect(canDelete('FINALIZADA')).toBe(true);
  });

  test('progress is delivered over valid contacts, as a percentage', () => {
    expect(progressPercent(50, 200)).toBe(25);
    expect(progressPercent(200, 200)).toBe(100);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(0, 0)).toBe(0);
  });

  test('settings are JSON-encoded values; defaults 20 / 20 / 60', () => {
    expect(parseSettings(undefined)).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [],
    });
    const s = parseSettings([
      { key: 'messageInterval', value: '5' },
      { key: 'variables', value: JSON.stringify([{ key: 'site', value: 'x.com' }]) },
      { key: 'greaterInterval', value: 'not json' },
    ]);
    expect(s.messageInterval).toBe(5);
    expect(s.greaterInterval).toBe(60);
    expect(s.variables).toEqual([{ key: 'site', value: 'x.com' }]);
  });

  test('a shortcut key already in use is not added again', () => {
    const list = [{ key: 'site', value: 'a' }];
    expect(addVariable(list, { key: 'SITE', value: 'b' })).toEqual({ ok: false, reason: 'inUse' });
    expect(addVariable(list, { key: 'two words', value: 'b' })).toEqual({ ok: false, reason: 'invalid' });
    expect(addVariable(list, { key: ' promo ', value: 'b' })).toEqual({
      ok: true,
      list: [...list, { key: 'promo', value: 'b' }],
    });
  });

  test('a variable goes in at the caret', () => {
    expect(insertAt('Hello !', '{{name}}', 6)).toEqual({ text: 'Hello {{name}}!', caret: 14 });
    expect(insertAt('Hi', '{{ms}}')).toEqual({ text: 'Hi{{ms}}', caret: 8 });
  });

  test('the audience is the tag only when a tag and no list is set', () => {
    expect(audienceOf({ contactListId: null, tagId: 3 })).toBe('tag');
    expect(audienceOf({ contactListId: 2, tagId: null })).toBe('list');
    expect(audienceOf(null)).toBe('list');
  });

  test('a segment is the audience when no list is set', () => {
    expect(audienceOf({ contactListId: null, tagId: null, segmentId: 4 })).toBe('segment');
    expect(audienceOf({ contactListId: 2, tagId: null, segmentId: 4 })).toBe('list');
  });
});

const template = (over: Partial<WhatsappTemplate> = {}): WhatsappTemplate => ({
  id: '901',
  whatsappId: 7,
  name: 'order_update',
  language: 'pt_BR',
  category: 'UTILITY',
  status: 'APPROVED',
  header: 'Pedido {{1}}',
  body: 'Olá {{1}}, seu pedido {{2}} saiu.',
  buttons: [],
  parameterFormat: 'positional',
  parameters: [
    { component: 'header', name: '1' },
    { component: 'body', name: '1' },
    { component: 'body', name: '2' },
  ],
  updatedAt: '2027-01-01T00:00:00.000Z',
  ...over,
});

describe('campaign templates (Cloud API connections)', () => {
  test('the chosen template is found by name and language, whatever its status', () => {
    const list = [
      template(),
      template({ id: '902', language: 'es' }),
      template({ id: '903', name: 'promo', status: 'PAUSED' }),
    ];
    expect(findTemplate(list, { name: 'order_update', language: 'es' })?.id).toBe('902');
    expect(findTemplate(list, { name: 'promo', language: 'pt_BR' })?.id).toBe('903');
    expect(findTemplate(list, { name: 'order_update', language: 'en_US' })).toBeNull();
    expect(findTemplate(list, null)).toBeNull();
    expect(findTemplate(undefined, { name: 'order_update', language: 'pt_BR' })).toBeNull();
  });

  test("a saved campaign's values fill the fields of their component: the header's {{1}} is not the body's", () => {
    expect(
      templateFieldValues({
        name: 'order_update',
        language: 'pt_BR',
        header: { 1: '#9' },
        body: { 1: '{{firstName}}', 2: '{{pedido}}' },
      }),
    ).toEqual({ 'header:1': '#9', 'body:1': '{{firstName}}', 'body:2': '{{pedido}}' });
    expect(templateFieldValues({ name: 'welcome', language: 'es' })).toEqual({});
    expect(templateFieldValues(null)).toEqual({});
  });

  test('a cloud campaign needs a template chosen and still sendable on its connection', () => {
    const filled = { 'header:1': '#9', 'body:1': 'Ana', 'body:2': '#9' };
    const chosen = { name: 'order_update', language: 'pt_BR' };
    expect(templateErrors(chosen, template(), filled, false)).toEqual({});
    expect(templateErrors(null, null, {}, false)).toEqual({ template: 'required' });
    // gone from the connection, paused or refused by Meta since the campaign was saved
    expect(templateErrors(chosen, null, filled, false)).toEqual({ template: 'unavailable' });
    expect(templateErrors(chosen, template({ status: 'PAUSED' }), filled, false)).toEqual({ template: 'unavailable' });
    expect(templateErrors(chosen, template({ unsupported: 'mediaHeader' }), filled, false)).toEqual({
      template: 'unavailable',
    });
  });

  test('every variable of a cloud campaign is filled (Meta refuses a blank one), each error on its own field', () => {
    const chosen = { name: 'order_update', language: 'pt_BR' };
    expect(templateErrors(chosen, template(), { 'body:1': 'Ana', 'body:2': '  ' }, false)).toEqual({
      'header:1': 'variable',
      'body:2': 'variable',
    });
    expect(templateErrors(chosen, template({ parameters: [] }), {}, false)).toEqual({});
  });

  test('a cloud campaign carries no attachment', () => {
    const chosen = { name: 'welcome', language: 'pt_BR' };
    expect(templateErrors(chosen, template({ name: 'welcome', parameters: [] }), {}, true)).toEqual({
      media: 'media',
    });
  });
});
