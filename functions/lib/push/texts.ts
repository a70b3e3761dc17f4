import { LANGUAGES, type Language } from '#shared/constants';

/** Notification texts in the user's language (their `language`, else Portuguese). */
const TEXTS = {
  pt: {
    pendingTicket: 'Novo ticket pendente',
    noQueue: 'Sem fila',
    media: 'Mídia',
    mention: (sender: string, chat: string) => `${sender} mencionou você em ${chat}`,
    slaBreach: 'Prazo de atendimento vencido',
    snoozeWoke: 'O atendimento adiado voltou para a sua lista',
    connectionAlert: (name: string) => `Conexão ${name}: atenção à qualidade do número`,
    connectionReason: {
      qualityDropped: (q: string) => `A Meta baixou a qualidade do número para ${q === 'RED' ? 'baixa' : 'média'}.`,
      flagged: () => 'A Meta sinalizou o número: a qualidade está baixa e o limite de mensagens não sobe.',
      limitLowered: () => 'A Meta reduziu o limite diário de mensagens do número.',
      reachoutLocked: () => 'O WhatsApp bloqueou novas conversas deste número por um tempo; as campanhas aguardam.',
    },
  },
  en: {
    pendingTicket: 'New pending ticket',
    noQueue: 'No queue',
    media: 'Media',
    mention: (sender: string, chat: string) => `${sender} mentioned you in ${chat}`,
    slaBreach: 'Service deadline missed',
    snoozeWoke: 'The snoozed ticket is back in your list',
    connectionAlert: (name: string) => `Connection ${name}: the number's quality needs attention`,
    connectionReason: {
      qualityDropped: (q: string) => `Meta lowered the number's quality to ${q === 'RED' ? 'low' : 'medium'}.`,
      flagged: () => 'Meta flagged the number: its quality is low and its messaging limit cannot rise.',
      limitLowered: () => "Meta lowered the number's daily messaging limit.",
      reachoutLocked: () => 'WhatsApp locked new chats from this number for a while; campaigns wait.',
    },
  },
  es: {
    pendingTicket: 'Nuevo ticket pendiente',
    noQueue: 'Sin cola',
    media: 'Multimedia',
    mention: (sender: string, chat: string) => `${sender} te mencionó en ${chat}`,
    slaBreach: 'Plazo de atención vencido',
    snoozeWoke: 'El ticket pospuesto volvió a su lista',
    connectionAlert: (name: string) => `Conexión ${name}: atención a la calidad del número`,
    connectionReason: {
      qualityDropped: (q: string) => `Meta bajó la calidad del número a ${q === 'RED' ? 'baja' : 'media'}.`,
      flagged: () => 'Meta marcó el número: su calidad es baja y su límite de mensajes no sube.',
      limitLowered: () => 'Meta redujo el límite diario de mensajes del número.',
      reachoutLocked: () =>
        'WhatsApp bloqueó nuevas conversaciones de este número por un tiempo; las campañas esperan.',
    },
  },
} satisfies Record<Language, unknown>;

export const pushTexts = (language?: string) =>
  TEXTS[(LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : 'pt'];
