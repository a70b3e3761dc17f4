import type { Language } from '#shared/constants';

/**
 * The fleet page's side menu label, kept apart from the page's strings (fleet.ts, loaded with the
 * page) until it moves to the common namespace's `menu`.
 */
export const fleetMenuLabel: Record<Language, string> = {
  pt: 'Frota do WhatsApp',
  en: 'WhatsApp fleet',
  es: 'Flota de WhatsApp',
};
