import { describe, expect, it } from 'vitest';
import { shownNumber } from './contact-number';
import { ContactForm, NumberlessContactForm } from './ContactModal';

const t = (key: string) => `<${key}>`;

describe('a contact without a number (known only by its @lid id)', () => {
  it('reads "no number (WhatsApp ID)" where a number is shown, never a blank', () => {
    expect(shownNumber('', t)).toBe('<common:noNumber>');
    expect(shownNumber(undefined, t)).toBe('<common:noNumber>');
    expect(shownNumber('5511999998888', t)).toBe('5511999998888');
  });

  it('is edited with the number left empty (omitted from the body); a typed number is checked as usual', () => {
    const base = { name: 'Renata', email: '' };
    expect(ContactForm.safeParse({ ...base, number: '' }).success).toBe(false);
    const kept = NumberlessContactForm.safeParse({ ...base, number: '' });
    expect(kept.success && kept.data.number).toBeUndefined();
    const typed = NumberlessContactForm.safeParse({ ...base, number: '+55 11 99999-8888' });
    expect(typed.success && typed.data.number).toBe('5511999998888');
    expect(NumberlessContactForm.safeParse({ ...base, number: '123' }).success).toBe(false);
  });
});
