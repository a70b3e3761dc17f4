import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants';
import MuiTheme from '../theme/MuiTheme';

/**
 * The language menu's list, loaded when a language button is first clicked (the signed-in top bar's,
 * or the public pages' drawn without MUI, hence its own MuiTheme).
 */
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
    <MuiTheme>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
        {LANGUAGES.map((lang) => (
          <MenuItem key={lang} selected={current === lang} onClick={() => onChoose(lang)} lang={lang}>
            {t(`languages.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
    </MuiTheme>
  );
}
