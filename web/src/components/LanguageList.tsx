import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants';

/** The language menu's list, loaded by LanguageMenu when its button is first clicked. */
export default function LanguageList({
  anchor,
  current,
  onChoose,
  onClose,
}: {
  anchor: HTMLElement | null;
  current: string;
  onChoose: (lang: Language) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {LANGUAGES.map((lang) => (
        <MenuItem key={lang} selected={current === lang} onClick={() => onChoose(lang)} lang={lang}>
          {t(`languages.${lang}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
