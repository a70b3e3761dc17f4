import { describe, expect, it } from 'vitest';
import { checkPrompt, emptyPrompt, promptToForm, type PromptForm } from './prompt-form';

const good: PromptForm = {
  ...emptyPrompt(),
  name: 'Assistente de vendas',
  apiKey: 'sk-test-123456',
  prompt: 'Você é um assistente de vendas cordial. Responda em português e seja breve.',
  queueId: 3,
};

describe('the prompt dialog (management.md 5 and 9)', () => {
  it('starts with the section 9 defaults and the default model', () => {
    expect(emptyPrompt()).toMatchObject({
      model: 'gpt-3.5-turbo-1106',
      temperature: 1,
      maxTokens: 100,
      maxMessages: 10,
    });
  });
  it('a complete form passes and sends every field', () => {
    const res = checkPrompt(good, false);
    expect(res.ok).toBe(true);
    if (res.ok)
      expect(res.body).toMatchObject({
        name: 'Assistente de vendas',
        queueId: 3,
        maxTokens: 100,
        apiKey: 'sk-test-123456',
      });
  });
  it('name under 5 and prompt under 50 characters are too short; name over 100 too long', () => {
    const res = checkPrompt({ ...good, name: 'Bot', prompt: 'curto demais' }, false);
    expect(res).toMatchObject({ ok: false, errors: { name: 'short', prompt: 'short' } });
    expect(checkPrompt({ ...good, name: 'x'.repeat(101) }, false)).toMatchObject({ errors: { name: 'long' } });
  });
  it('without a queue it is the choose-queue error', () => {
    expect(checkPrompt({ ...good, queueId: '' }, false)).toMatchObject({
      ok: false,
      chooseQueue: true,
      errors: { queueId: 'required' },
    });
  });
  it('apiKey is required on create, numbers are required, temperature stays within 0 to 1 by steps of 0.1', () => {
    expect(checkPrompt({ ...good, apiKey: '' }, false)).toMatchObject({ errors: { apiKey: 'required' } });
    expect(checkPrompt({ ...good, maxTokens: '' }, false)).toMatchObject({ errors: { maxTokens: 'required' } });
    expect(checkPrompt({ ...good, temperature: 1.5 }, false)).toMatchObject({ errors: { temperature: 'invalid' } });
    expect(checkPrompt({ ...good, temperature: 0.25 }, false)).toMatchObject({ errors: { temperature: 'invalid' } });
    expect(checkPrompt({ ...good, temperature: 0.7 }, false).ok).toBe(true);
  });
  it('on edit the masked key is left out so the stored key stays; a new key is sent', () => {
    const stored = promptToForm({
      id: 1,
      companyId: 1,
      name: good.name,
      prompt: good.prompt,
      model: 'gpt-4o-mini',
      maxTokens: 200,
      temperature: 0.5,
      apiKey: '********3456',
      queueId: 3,
      maxMessages: 5,
      useKnowledgeBase: true,
      queue: { id: 3, name: 'Vendas', color: '#fff' },
      createdAt: '',
      updatedAt: '',
    });
    const kept = checkPrompt(stored, true);
    expect(kept.ok && kept.body.apiKey).toBeUndefined();
    // the knowledge base switch goes back as it was
    expect(kept.ok && kept.body.useKnowledgeBase).toBe(true);
    expect(checkPrompt({ ...stored, useKnowledgeBase: false }, true)).toMatchObject({
      body: { useKnowledgeBase: false },
    });
    const replaced = checkPrompt({ ...stored, apiKey: 'sk-new' }, true);
    expect(replaced.ok && replaced.body.apiKey).toBe('sk-new');
  });
});
