import { describe, expect, it } from 'vitest';
import { checkIntegration, emptyIntegration, FIELDS_BY_TYPE } from './integration-form';

describe('the integration dialog (management.md "Queue integrations", 5 and 9)', () => {
  it('each type shows its own fields', () => {
    expect(FIELDS_BY_TYPE.dialogflow).toEqual(['name', 'language', 'projectName', 'jsonContent']);
    expect(FIELDS_BY_TYPE.n8n).toEqual(['name', 'urlN8N']);
    expect(FIELDS_BY_TYPE.webhook).toEqual(['name', 'urlN8N']);
    expect(FIELDS_BY_TYPE.typebot).toContain('typebotSlug');
    expect(FIELDS_BY_TYPE.typebot).toContain('typebotRestartMessage');
  });
  it('a new integration has the typebot defaults: delay 1000, expires 1', () => {
    expect(emptyIntegration()).toMatchObject({ typebotDelayMessage: 1000, typebotExpires: 1, language: 'pt-BR' });
  });
  it('name is required, 2 to 50', () => {
    expect(checkIntegration({ ...emptyIntegration('dialogflow'), name: '' })).toMatchObject({
      ok: false,
      errors: { name: 'required' },
    });
    expect(checkIntegration({ ...emptyIntegration('dialogflow'), name: 'x' })).toMatchObject({
      errors: { name: 'short' },
    });
    expect(checkIntegration({ ...emptyIntegration('dialogflow'), name: 'x'.repeat(51) })).toMatchObject({
      errors: { name: 'long' },
    });
    expect(checkIntegration({ ...emptyIntegration('dialogflow'), name: 'Bot FAQ' }).ok).toBe(true);
  });
  it('n8n and webhook need urlN8N; typebot needs urlN8N and typebotSlug', () => {
    expect(checkIntegration({ ...emptyIntegration('n8n'), name: 'Fluxo' })).toMatchObject({
      errors: { urlN8N: 'required' },
    });
    expect(checkIntegration({ ...emptyIntegration('webhook'), name: 'Hook' })).toMatchObject({
      errors: { urlN8N: 'required' },
    });
    expect(
      checkIntegration({ ...emptyIntegration('typebot'), name: 'Typebot', urlN8N: 'https://typebot.example.com' }),
    ).toMatchObject({ errors: { typebotSlug: 'required' } });
  });
  it('n8n, webhook and typebot save projectName = name and only their own fields', () => {
    const res = checkIntegration({
      ...emptyIntegration('webhook'),
      name: 'Meu webhook',
      urlN8N: 'https://hooks.example.com/in',
      typebotSlug: 'left-over',
      jsonContent: 'left-over',
    });
    expect(res.ok).toBe(true);
    if (res.ok) {
      expect(res.body).toMatchObject({ type: 'webhook', name: 'Meu webhook', projectName: 'Meu webhook' });
      expect(res.body.typebotSlug).toBe('');
      expect(res.body.jsonContent).toBe('');
    }
  });
  it('an emptied typebot number falls back to its default', () => {
    const res = checkIntegration({
      ...emptyIntegration('typebot'),
      name: 'Typebot',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'my-bot',
      typebotDelayMessage: '',
    });
    expect(res.ok && res.body.typebotDelayMessage).toBe(1000);
  });
  it('dialogflow keeps its own projectName and refuses credentials that are not a service account', () => {
    const res = checkIntegration({ ...emptyIntegration('dialogflow'), name: 'Bot FAQ', projectName: 'faq-123' });
    expect(res.ok && res.body.projectName).toBe('faq-123');
    expect(
      checkIntegration({ ...emptyIntegration('dialogflow'), name: 'Bot FAQ', jsonContent: '{"a":1}' }),
    ).toMatchObject({ errors: { jsonContent: 'invalid' } });
  });
});
