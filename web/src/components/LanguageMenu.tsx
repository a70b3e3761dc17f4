import { useState } from 'react';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants';
import { storeLanguage } from '../i18n';

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
  const choose = (lang: Language) => {
    setAnchor(null);
    language.choose(lang);
  };
  return (
    <>
      <Tooltip title={t('topbar.language')}>
        <IconButton
          color={color ?? 'inherit'}
          aria-label={t('topbar.language')}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem key={lang} selected={language.current === lang} onClick={() => choose(lang)} lang={lang}>
            {t(`languages.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
