import type { ReactNode } from 'react';
import forumIcon from '@mui/icons-material/Forum?raw';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from './LanguageMenu';
import { PlainIcon } from './PlainIcon';
import './public.css';

/**
 * The frame of login, signup and reset: logo, title, language menu, copyright footer. Plain HTML
 * and CSS (public.css) in the theme's look, so the login page shows without MUI (issue 25).
 */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="pub">
      <div className="pub-top">
        <LanguageMenu color="default" />
      </div>
      <div className="pub-container">
        <div className="pub-paper">
          <div className="pub-heading">
            <PlainIcon source={forumIcon} size={35} />
            <h1>{title}</h1>
          </div>
          {children}
        </div>
      </div>
      <p className="pub-footer">{t('copyright', { year: new Date().getFullYear() })}</p>
    </main>
  );
}
