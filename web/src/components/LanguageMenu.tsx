import { lazy, Suspense, useState } from 'react';
import translateIcon from '@mui/icons-material/Translate?raw';
import { useTranslation } from 'react-i18next';
import type { Language } from '#shared/constants';
import { PlainIcon } from './PlainIcon';
import { useLanguageChoice } from './useLanguageChoice';
import './icon-button.css';

// the menu's code (Menu, Popover, MenuItem) loads on the first click: the login page shows without it (issue 25)
const LanguageList = lazy(() => import('./LanguageList'));

/**
 * pt / en / es. `onChange` lets the signed-in shell tell the server (set-language). The button is
 * plain HTML styled like MUI's IconButton (icon-button.css): the public pages show it before MUI loads.
 */
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
      <button
        type="button"
        className={`app-icon-button${color === 'default' ? ' app-icon-button--default' : ''}`}
        aria-label={t('topbar.language')}
        title={t('topbar.language')}
        aria-haspopup="menu"
        onClick={(e) => {
          setAnchor(e.currentTarget);
          setLoaded(true);
        }}
      >
        <PlainIcon source={translateIcon} />
      </button>
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
