import { describe, expect, it } from 'vitest';
import { CloudTemplate } from '#shared/schemas/whatsapp-cloud';
import { renderTemplate, templateVariables } from '#shared/schemas/whatsapp-templates';
import { templateFromGraph } from './templates';

const graph = (fields: Record<string, unknown>) =>
  CloudTemplate.parse({ id: '1', name: 't', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', ...fields });
const NOW = '2026-12-02T00:00:00.000Z';

describe('a Graph template as the product keeps it', () => {
  it('keeps texts and buttons, lists header then body variables once each, with their examples', () => {
    const t = templateFromGraph(
      graph({
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['#9'] } },
          { type: 'BODY', text: 'Oi {{1}}, {{2}} e de novo {{1}}', example: { body_text: [['Ana', 'x']] } },
          { type: 'FOOTER', text: 'Loja' },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'QUICK_REPLY', text: 'Sim' },
              { type: 'URL', text: 'Site', url: 'https://a.b/' },
            ],
          },
        ],
      }),
      4,
      NOW,
    );
    expect(t).toEqual({
      id: '1',
      whatsappId: 4,
      name: 't',
      language: 'pt_BR',
      category: 'UTILITY',
      status: 'APPROVED',
      headerFormat: 'TEXT',
      header: 'Pedido {{1}}',
      body: 'Oi {{1}}, {{2}} e de novo {{1}}',
      footer: 'Loja',
      buttons: ['Sim', 'Site'],
      parameterFormat: 'positional',
      parameters: [
        { component: 'header', name: '1', example: '#9' },
        { component: 'body', name: '1', example: 'Ana' },
        { component: 'body', name: '2', example: 'x' },
      ],
      updatedAt: NOW,
    });
  });

  it('marks what the product cannot fill: a media header, a button that needs a value, unknown parts', () => {
    const body = { type: 'BODY', text: 'Oi' };
    expect(templateFromGraph(graph({ components: [{ type: 'HEADER', format: 'IMAGE' }, body] }), 1).unsupported).toBe(
      'mediaHeader',
    );
    const urlButton = { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver', url: 'https://a.b/{{1}}' }] };
    expect(templateFromGraph(graph({ components: [body, urlButton] }), 1).unsupported).toBe('buttonParameters');
    const copy = { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'Copiar' }] };
    expect(templateFromGraph(graph({ components: [body, copy] }), 1).unsupported).toBe('buttonParameters');
    expect(templateFromGraph(graph({ components: [body, { type: 'CAROUSEL', cards: [] }] }), 1).unsupported).toBe(
      'components',
    );
    expect(templateFromGraph(graph({ components: [body] }), 1).unsupported).toBeUndefined();
  });

  it('a rejected template keeps its reason; NONE is no reason', () => {
    const body = { type: 'BODY', text: 'Oi' };
    expect(
      templateFromGraph(graph({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT', components: [body] }), 1),
    ).toMatchObject({ status: 'REJECTED', reason: 'INVALID_FORMAT' });
    expect(templateFromGraph(graph({ rejected_reason: 'NONE', components: [body] }), 1).reason).toBeUndefined();
  });

  it('named parameters keep their names and examples', () => {
    const t = templateFromGraph(
      graph({
        parameter_format: 'NAMED',
        components: [
          {
            type: 'BODY',
            text: 'Oi {{first_name}}, pedido {{order}}',
            example: { body_text_named_params: [{ param_name: 'order', example: '#1' }] },
          },
        ],
      }),
      1,
    );
    expect(t.parameterFormat).toBe('named');
    expect(t.parameters).toEqual([
      { component: 'body', name: 'first_name' },
      { component: 'body', name: 'order', example: '#1' },
    ]);
  });
});

describe('template texts', () => {
  it('finds variables in order, each once', () => {
    expect(templateVariables('{{2}} {{ 1 }} {{2}} {{name}}')).toEqual(['2', '1', 'name']);
    expect(templateVariables(undefined)).toEqual([]);
  });

  it('renders header in bold, body, footer in italics; a missing value stays as written', () => {
    expect(
      renderTemplate(
        { header: 'Pedido {{1}}', body: 'Oi {{1}}, {{2}}', footer: 'Loja' },
        {
          header: { 1: '#9' },
          body: { 1: 'Ana' },
        },
      ),
    ).toBe('*Pedido #9*\n\nOi Ana, {{2}}\n\n_Loja_');
    expect(renderTemplate({ body: 'Só isso' }, {})).toBe('Só isso');
  });
});
