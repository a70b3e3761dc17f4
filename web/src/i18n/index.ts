import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants';
import common from './common';
import auth from './auth';
import errors from './errors';
import tickets from './tickets';
import dashboard from './dashboard';
import todo from './todo';
import contacts from './contacts';
import connections from './connections';
import queues from './queues';
import users from './users';
import contactsPage from './contactsPage';
import tags from './tags';
import quickMessages from './quickMessages';
import settings from './settings';
import chats from './chats';
import kanban from './kanban';
import announcements from './announcements';
import helps from './helps';
import billing from './billing';
import schedules from './schedules';
import files from './files';
import contactLists from './contactLists';
import campaigns from './campaigns';
import prompts from './prompts';
import integrations from './integrations';
import messagesApi from './messagesApi';
import audit from './audit';
import fleet, { fleetMenuLabel } from './fleet';
import type { Locales, Strings } from './types';

/** The fleet page's menu label joins the common menu (kept in fleet.ts beside the page's strings). */
const withFleetMenu = (lang: Language): Strings => ({
  ...common[lang],
  menu: { ...(common[lang].menu as Strings), fleet: fleetMenuLabel[lang] },
});

/**
 * One i18n setup. Each area has ONE namespace file holding pt, en and es side by side (so a missing
 * translation shows in review); add an area by adding its file to this table.
 */
export const namespaces: Record<string, Locales> = {
  common: { pt: withFleetMenu('pt'), en: withFleetMenu('en'), es: withFleetMenu('es') },
  auth,
  errors,
  tickets,
  contacts,
  dashboard,
  todo,
  connections,
  queues,
  users,
  contactsPage,
  tags,
  quickMessages,
  settings,
  chats,
  kanban,
  announcements,
  helps,
  billing,
  schedules,
  files,
  contactLists,
  campaigns,
  prompts,
  integrations,
  messagesApi,
  audit,
  fleet,
};

const STORAGE_KEY = 'language';

/** Stored language (first two letters), else the browser's, else pt. */
export function detectLanguage(stored: string | null, browser: string | undefined): Language {
  for (const candidate of [stored, browser]) {
    const short = candidate?.slice(0, 2).toLowerCase();
    if (short && (LANGUAGES as readonly string[]).includes(short)) return short as Language;
  }
  return 'pt';
}

export function storeLanguage(lang: Language) {
  localStorage.setItem(STORAGE_KEY, lang);
}

export function initI18n(lang?: Language) {
  const resources: Record<string, Record<string, object>> = {};
  for (const l of LANGUAGES) {
    resources[l] = {};
    for (const [ns, locales] of Object.entries(namespaces)) resources[l][ns] = locales[l];
  }
  const language =
    lang ??
    detectLanguage(
      typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY),
      typeof navigator === 'undefined' ? undefined : navigator.language,
    );
  void i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'pt',
    ns: Object.keys(namespaces),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return i18n;
}

export default i18n;
