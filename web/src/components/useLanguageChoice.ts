import { useTranslation } from 'react-i18next';
import type { Language } from '#shared/constants';
import { storeLanguage } from '../i18n';

/** Switches the interface language (stored, applied, announced to `onChange`); the language menus and the phone's overflow menu use it. */
export function useLanguageChoice(onChange?: (lang: Language) => void) {
  const { i18n } = useTranslation();
  return {
    current: i18n.language,
    choose: (lang: Language) => {
      storeLanguage(lang);
      void i18n.changeLanguage(lang);
      document.documentElement.lang = lang;
      onChange?.(lang);
    },
  };
}
