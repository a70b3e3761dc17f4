import { lazy, Suspense, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import type { Language } from '#shared/constants';
import { storeLanguage } from '../i18n';

// the menu's code (Menu, Popover, MenuItem) loads on the first click: the login page shows without it (issue 25)
const LanguageList = lazy(() => import('./LanguageList'));

/** Switches the interface language (stored, applied, announced to `onChange`); the menu below and the phone's overflow menu use it. */
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

/** pt / en / es. `onChange` lets the signed-in shell tell the server (set-language). */
export function LanguageMenu({
  onChange,
  color,
}: {
  onChange?: (lang: Language) => void;
  color?: 'inherit' | 'default';
}) {
  const { t } = useTranslation();
  const language = useLanguageChoice(onChange);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // mounted from the first click on, so the menu closes with its transition like any other
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <IconButton
        color={color ?? 'inherit'}
        aria-label={t('topbar.language')}
        title={t('topbar.language')}
        aria-haspopup="menu"
        onClick={(e) => {
          setAnchor(e.currentTarget);
          setLoaded(true);
        }}
      >
        <TranslateIcon />
      </IconButton>
      {loaded && (
        <Suspense fallback={null}>
          <LanguageList
            anchor={anchor}
            current={language.current}
            onChoose={(lang) => {
              setAnchor(null);
              language.choose(lang);
            }}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
