/** Business constants (attendance.md section 9, management.md section 9). */
export const VERSION = '6.0.0';

export const DEBOUNCE_MS = 500;
export const FORM_SUBMIT_DELAY_MS = 400;
export const NEXT_PAGE_TOP_PX = 50;
export const NEXT_PAGE_BOTTOM_PX = 100;
export const EXPIRY_WARNING_DAYS = 5;
export const TRIAL_DAYS = 3;
/** The platform's own company (the seed's): its `asaas` setting holds the payment provider's key. */
export const PLATFORM_COMPANY_ID = 1;
/** An invoice is issued this many days before the company's due date. */
export const INVOICE_LEAD_DAYS = 10;
/** Payment confirmation: the renewal toast, then / after this delay (management.md 9). */
export const PAYMENT_REDIRECT_MS = 4_000;
export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const RECURRENCE_MONTHS: Record<(typeof RECURRENCES)[number], number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};
export const SOCKET_PING_MS = 18_000;
export const RELOAD_AFTER_EXPIRED_MS = 1_000;
export const USER_STATUS_INTERVAL_MS = 300_000;
/**
 * What one socket may do (issue 35; docs/realtime.md). A frame larger than API Gateway's 128 KB
 * closes the socket with 1009 (on AWS API Gateway does it; locally the gateway, which never buffers
 * more). A socket holds at most SOCKET_MAX_CHAT_BOXES open tickets (the web app opens one at a time);
 * it sends at most SOCKET_RATE.messages frames per window of SOCKET_RATE.windowSeconds (the web app
 * sends a ping every 18 s, typing once per 3 s per ticket, and a few joins per screen), and past it
 * gets an `error` event with ERR_TOO_MANY_ATTEMPTS and is closed.
 */
export const SOCKET_MAX_FRAME_BYTES = 131_072;
export const SOCKET_MAX_CHAT_BOXES = 10;
/** Sockets one sign-in (session) holds open at once: its tabs and windows; one more is refused (429). */
export const MAX_SOCKETS_PER_SESSION = 20;
export const SOCKET_RATE = { windowSeconds: 10, messages: 50 } as const;
/** Close codes of the socket: 1009 frame too large (RFC 6455), 1000 closed by the server (ended session, rate limit: API Gateway's DeleteConnection closes with 1000 and takes no code). */
export const SOCKET_CLOSE_TOO_LARGE = 1009;
export const MIN_RECORDING_BYTES = 10_000;
export const AUDIO_BITRATE = 128;
export const QUICK_REPLY_LABEL_CHARS = 35;
export const COMPOSER_MAX_ROWS = 5;
export const MAX_RATING = 3;
export const VOLUME_DEFAULT = 1;
export const VOLUME_STEP = 0.1;
export const DATE_FORMAT = 'DD/MM/YYYY';
export const TIME_FORMAT = 'HH:mm';
export const CONNECTION_DATE_FORMAT = 'dd/MM/yy HH:mm';
export const DASHBOARD_PERIODS = [0, 3, 7, 15, 30, 60, 90] as const;
export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const TOAST_CLOSE_MS = 3_000;
export const REDIRECT_DELAY_MS = 1_000;
export const QR_SIZE = 256;
export const PAGE_SIZE = 20;
/** Most ids one list filter of a query string may carry (`queueIds`, `tags`, `users`). */
export const MAX_QUERY_IDS = 50;

/**
 * Per-user caps on lists a user grows by repeated calls (security review: one attendant had 120 push
 * devices). Plan limits cap users, connections and queues; these cap what any signed-in user adds.
 */
/** Push devices per user: phones, laptops and browsers of one person; past it the stalest device is replaced. */
export const MAX_PUSH_DEVICES_PER_USER = 10;
/** Quick messages a user creates (shared or private): the composer's `/` list loads them all at once. */
export const MAX_QUICK_MESSAGES_PER_USER = 200;
/** Tags of a company (any user makes them): the tag picker, `/tags/list` and the kanban load them all at once. */
export const MAX_TAGS_PER_COMPANY = 300;
/**
 * Notes people write on one ticket (the notes panel and `/ticket-notes/list` load them all at once);
 * the system's own notes (takeovers, AI hand-offs) are not counted and are always written.
 */
export const MAX_NOTES_PER_TICKET = 300;

/** Access token lifetime and refresh token lifetime. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 7;
/**
 * How long a used refresh token may be presented again by a browser that never got the answer
 * (functions/lib/accounts/sessions.ts consumeRefreshToken).
 */
export const REFRESH_RETRY_GRACE_MS = 20_000;
export const WS_TICKET_SECONDS = 60;

export const CONNECTION_STATUSES = ['CONNECTED', 'DISCONNECTED', 'OPENING', 'qrcode', 'PAIRING', 'TIMEOUT'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export const CONNECTION_WARNING_STATUSES: ConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];

/**
 * Undelivered watchdog (issue 15): a message we sent that has no delivery ack (ack < 2) this long
 * after the send is flagged on its bubble and its ticket; a phone that is on gets it in seconds.
 */
export const UNDELIVERED_AFTER_MINUTES = 5;
/** Flagged messages on one ticket (one chat) that make the watchdog ask the runner to repair the session. */
export const REPAIR_AFTER_UNDELIVERED = 3;

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Default queue attendance hours (management.md section 9). Week starts Monday. */
export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;
export const DEFAULT_SCHEDULES = WEEKDAYS.map((d, i) => ({
  ...d,
  startTime: i < 5 ? '08:00' : i === 5 ? '08:00' : '00:00',
  endTime: i < 5 ? '18:00' : i === 5 ? '12:00' : '00:00',
}));

/** Connection defaults (management.md section 9). */
/**
 * How a connection reaches WhatsApp: `baileys`, WhatsApp Web through the session runner (stored
 * as the legacy `beta` on older connections, and still the default), or `cloud`, Meta's WhatsApp
 * Business Cloud API through webhooks and the Graph API (no runner, no QR code).
 */
export const CONNECTION_PROVIDERS = ['baileys', 'beta', 'cloud'] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];
export const isCloudProvider = (provider: string | undefined) => provider === 'cloud';

export const CONNECTION_DEFAULTS = {
  provider: 'beta',
  maxUseBotQueues: 3,
  expiresTicket: 0,
  timeUseBotQueues: 0,
} as const;

/**
 * Company settings and their defaults (management.md section 9; attendance.md section 9).
 * Values are strings, as the product sends them.
 */
export const SETTING_DEFAULTS = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  CheckMsgIsGroup: 'enabled',
  call: 'disabled',
  chatBotType: 'text',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'disabled',
  userCreation: 'enabled',
  initialMenu: 'open',
  asaas: '',
  /** the access token Asaas sends with its webhooks (platform company only) */
  asaasWebhookToken: '',
  /** issue 24: minutes without input in any tab before a user shows as away */
  awayAfterMinutes: '5',
  /** issue 24: whether attendants (not only admins) may take over a ticket someone else is handling */
  takeoverByAnyUser: 'disabled',
  /** issue 39: the prompt (its model and key) the attendants' copilot answers with; empty: the ticket's queue's prompt */
  copilotPromptId: '',
  /** issue 39: the most AI model calls per month the admin allows (empty: no cap but the plan's) */
  aiMonthlyCallLimit: '',
} as const;
export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_VALUES: Partial<Record<SettingKey, readonly string[]>> = {
  userRating: ['enabled', 'disabled'],
  scheduleType: ['disabled', 'queue', 'company'],
  CheckMsgIsGroup: ['enabled', 'disabled'],
  call: ['enabled', 'disabled'],
  chatBotType: ['text'],
  sendGreetingAccepted: ['enabled', 'disabled'],
  sendMsgTransfTicket: ['enabled', 'disabled'],
  sendGreetingMessageOneQueues: ['enabled', 'disabled'],
  userCreation: ['enabled', 'disabled'],
  initialMenu: ['open', 'closed'],
  awayAfterMinutes: ['1', '2', '5', '10', '15', '30', '60'],
  takeoverByAnyUser: ['enabled', 'disabled'],
};

/** Free-text settings and the values they take (checked on PUT /settings/{key}). */
export const SETTING_PATTERNS: Partial<Record<SettingKey, RegExp>> = {
  // empty (no cap) or a positive whole number
  aiMonthlyCallLimit: /^(?:|[1-9]\d{0,8})$/,
  // empty (the ticket's queue's prompt) or a prompt id; that it is one of the company's prompts is the service's check
  copilotPromptId: /^(?:|[1-9]\d{0,9})$/,
};

/** `aiMonthlyCallLimit` as a number; empty or unreadable: no cap (null). */
export function parseAiCallLimit(value: string | undefined): number | null {
  const n = Number(value?.trim() || 0);
  return Number.isInteger(n) && n > 0 ? n : null;
}
