import { LANGUAGES, type Language } from '#shared/constants';

/** Notification texts in the user's language (their `language`, else Portuguese). */
const TEXTS = {
  pt: {
    pendingTicket: 'Novo ticket pendente',
    noQueue: 'Sem fila',
    media: 'Mídia',
    mention: (sender: string, chat: string) => `${sender} mencionou você em ${chat}`,
    slaBreach: 'Prazo de atendimento vencido',
  },
  en: {
    pendingTicket: 'New pending ticket',
    noQueue: 'No queue',
    media: 'Media',
    mention: (sender: string, chat: string) => `${sender} mentioned you in ${chat}`,
    slaBreach: 'Service deadline missed',
  },
  es: {
    pendingTicket: 'Nuevo ticket pendiente',
    noQueue: 'Sin cola',
    media: 'Multimedia',
    mention: (sender: string, chat: string) => `${sender} te mencionó en ${chat}`,
    slaBreach: 'Plazo de atención vencido',
  },
} satisfies Record<Language, unknown>;

export const pushTexts = (language?: string) =>
  TEXTS[(LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : 'pt'];
