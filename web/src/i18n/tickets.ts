import type { Locales } from './types';

export default {
  pt: {},
  en: {},
  es: {},
} satisfies Locales;
