/** A nested table of strings. */
export interface Strings {
  [key: string]: string | Strings;
}
/** One namespace in every language the product speaks (pt, en, es). */
export interface Locales {
  pt: Strings;
  en: Strings;
  es: Strings;
}
