import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants';
import common from './common';
import auth from './auth';
import pwa from './pwa';
import { fleetMenuLabel } from './fleet-menu';
import type { Locales, Strings } from './types';

/** The fleet page's menu label joins the common menu (kept in fleet-menu.ts). */
const withFleetMenu = (lang: Language): Strings => ({
  ...common[lang],
  menu: { ...(common[lang].menu as Strings), fleet: fleetMenuLabel[lang] },
});

/**
 * One i18n setup. Each area has ONE namespace file holding pt, en and es side by side (so a missing
 * translation shows in review); add an area by adding its file to one of these two tables.
 *
 * `namespaces` ship with the app: the public pages (login, signup, reset), the shared words of every
 * page and the offline notice need them before anything else loads. The error toasts' texts (three
 * languages of every catalogued code) are fetched at start-up beside the page instead of inside it
 * (`eagerNamespaces`); a toast raised before they arrive waits for them (api/toast-error.ts).
 */
export const namespaces: Record<string, Locales> = {
  common: { pt: withFleetMenu('pt'), en: withFleetMenu('en'), es: withFleetMenu('es') },
  auth,
  pwa,
};

/** Lazy namespaces that start loading with the app rather than when a component first asks. */
export const eagerNamespaces = ['errors'];

/**
 * Every other area loads as its own small chunk the first time a component asks for it
 * (`useTranslation('tickets')` suspends until then), so the login page downloads none of them.
 */
export const lazyNamespaces: Record<string, () => Promise<{ default: Locales }>> = {
  errors: () => import('./errors'),
  tickets: () => import('./tickets'),
  contacts: () => import('./contacts'),
  dashboard: () => import('./dashboard'),
  todo: () => import('./todo'),
  connections: () => import('./connections'),
  queues: () => import('./queues'),
  users: () => import('./users'),
  contactsPage: () => import('./contactsPage'),
  tags: () => import('./tags'),
  quickMessages: () => import('./quickMessages'),
  settings: () => import('./settings'),
  chats: () => import('./chats'),
  kanban: () => import('./kanban'),
  announcements: () => import('./announcements'),
  helps: () => import('./helps'),
  billing: () => import('./billing'),
  schedules: () => import('./schedules'),
  files: () => import('./files'),
  contactLists: () => import('./contactLists'),
  campaigns: () => import('./campaigns'),
  prompts: () => import('./prompts'),
  knowledge: () => import('./knowledge'),
  customFields: () => import('./customFields'),
  segments: () => import('./segments'),
  integrations: () => import('./integrations'),
  messagesApi: () => import('./messagesApi'),
  audit: () => import('./audit'),
  fleet: () => import('./fleet'),
  notifications: () => import('./notifications'),
  search: () => import('./search'),
  sla: () => import('./sla'),
  snooze: () => import('./snooze'),
  templates: () => import('./templates'),
  knowledgeLearn: () => import('./knowledgeLearn'),
  copilot: () => import('./copilot'),
  keyboard: () => import('./keyboard'),
};

/** i18next's loader for `lazyNamespaces`: the chunk holds the three languages, i18next asks for one. */
const lazyLoader: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = lazyNamespaces[namespace];
    if (!load) return callback(new Error(`unknown i18n namespace ${namespace}`), false);
    load().then(
      (m) => callback(null, m.default[language as Language] ?? m.default.pt),
      (err: Error) => callback(err, false),
    );
  },
};

/** Starts loading namespaces ahead of the components that need them (they suspend less often). */
export const preloadNamespaces = (names: string[]) => i18n.loadNamespaces(names);

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
  void i18n
    .use(lazyLoader)
    .use(initReactI18next)
    .init({
      resources,
      // the bundled namespaces are complete; the loader fetches the lazy ones
      partialBundledLanguages: true,
      lng: language,
      fallbackLng: 'pt',
      ns: [...Object.keys(namespaces), ...eagerNamespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return i18n;
}

export default i18n;
