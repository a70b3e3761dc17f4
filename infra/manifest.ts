/**
 * The app manifest: every HTTP resource module and its routes, the WebSocket handlers, every queue
 * with its consumer, and every timer. The CDK stack (infra/aws) and the local runtime (infra/local)
 * are both generated from this one declaration: adding a route or a queue is one line here (plus the
 * handler it names).
 *
 * Route paths are given without the `/api` prefix; both runtimes serve them under `/api`.
 * Handler modules are paths under `functions/` without extension, each exporting `handler`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type RouteKey = `${HttpMethod} /${string}`;

export interface HttpModule {
  /** `functions/http/<name>.ts` */
  name: string;
  routes: RouteKey[];
  /** Lambda memory in MB (default 512). */
  memory?: number;
  timeoutSeconds?: number;
  /** what its function may touch on AWS (default `tenant`) */
  access?: AccessGroup;
}

/**
 * What a handler may touch on AWS. The CDK stack gives each group one execution role holding
 * exactly this (and the matching environment), so a module never holds access it does not use.
 * No group may Scan the table.
 */
export interface Access {
  /** the one table: Get/Query, or also Put/Update/Delete (never Scan) */
  table: 'read' | 'readwrite';
  /** media bucket objects under the tenant prefixes (`company<id>/`) */
  media?: 'readwrite';
  /** manifest queues it sends to */
  sendsTo?: string[];
  /** the JWT signing key: sessions, WebSocket tickets and cursors */
  jwt?: boolean;
  /** the data key that seals what companies store (AI API keys, integration credentials) */
  dataKey?: boolean;
  /** posts to WebSocket connections */
  realtime?: boolean;
  /** reads every manifest queue's depth and its dead letters, and redrives them (the fleet view) */
  queueAdmin?: boolean;
  /** sends e-mail through SES (when a sender is configured) */
  mail?: boolean;
  /** the search domain (with `search=on`): query it, or also write documents (the stream feed) */
  search?: 'read' | 'write';
  /** the Web Push VAPID keys: read them (who sends, and who hands browsers the public key), or also fill them (the seed) */
  vapid?: 'read' | 'write';
}

export const access = {
  version: { table: 'read' },
  /** login, refresh, password reset, signup */
  public: { table: 'readwrite', jwt: true, realtime: true, mail: true },
  /** the tenant's modules */
  tenant: {
    table: 'readwrite',
    jwt: true,
    dataKey: true,
    media: 'readwrite',
    realtime: true,
    sendsTo: ['session-commands', 'cloud-commands', 'transport-failover', 'campaigns', 'push', 'automation'],
    // GET /search and the tickets page's search
    search: 'read',
  },
  /** the push subscription routes: the caller's devices, and the VAPID public key browsers subscribe with */
  pushApi: { table: 'readwrite', jwt: true, vapid: 'read' },
  /** $connect verifies tickets; $disconnect and $default keep the connection items */
  ws: { table: 'readwrite', jwt: true, realtime: true },
  /** queue consumers and timers */
  jobs: {
    table: 'readwrite',
    // the inbound consumer calls AI providers and integrations with the keys companies stored
    dataKey: true,
    media: 'readwrite',
    realtime: true,
    // the Cloud API sender reports its outcomes on `inbound`, in the chat's group, as the runner does
    sendsTo: [
      'session-commands',
      'cloud-commands',
      'transport-failover',
      'inbound',
      'schedules',
      'campaigns',
      'push',
      'automation',
    ],
  },
  /** the push queue's consumer: the only one that signs with the VAPID private key; retries go back on its queue */
  pushSender: { table: 'readwrite', vapid: 'read', sendsTo: ['push'] },
  /** the operator's fleet view: reads the table, counts the queues, redrives dead letters */
  fleet: { table: 'readwrite', jwt: true, queueAdmin: true },
  /** the table's change stream -> the search index: reads tickets, writes documents */
  searchIndexer: { table: 'read', search: 'write' },
  /** the platform seed after each deployment (it also makes the VAPID keys, once) */
  seed: { table: 'readwrite', vapid: 'write' },
  /** Meta's webhook: finds the connection, opens its app secret, queues the events */
  cloudWebhook: { table: 'read', dataKey: true, sendsTo: ['inbound'] },
  /** the WhatsApp process: no JWT key, it authenticates nobody */
  sessionRunner: { table: 'readwrite', media: 'readwrite', realtime: true, sendsTo: ['inbound'] },
} as const satisfies Record<string, Access>;
export type AccessGroup = keyof typeof access;

/** Queue consumers and timers, unless a queue says otherwise. */
export const JOB_TIMEOUT_SECONDS = 60;
/** AWS advises a queue's visibility timeout of at least 6x its Lambda consumer's timeout. */
export const VISIBILITY_PER_TIMEOUT = 6;

/** A queue with this consumer is polled by the session runner (Fargate), not by a Lambda. */
export const SESSION_RUNNER_CONSUMER = 'session-runner';

export interface QueueDef {
  name: string;
  fifo: boolean;
  /** handler module under functions/, e.g. `jobs/send`, or SESSION_RUNNER_CONSUMER */
  consumer: string;
  batchSize?: number;
  maxReceiveCount?: number;
  /**
   * Its delayed messages are checks scheduled for later, not work in progress: the local stack's
   * idle() does not wait for them to come due (tests bring them on with release-delayed).
   */
  delayedIsScheduled?: boolean;
  /** Lambda consumers: how long one batch may run (default JOB_TIMEOUT_SECONDS) */
  timeoutSeconds?: number;
  /** at least (and by default) VISIBILITY_PER_TIMEOUT x timeoutSeconds for Lambda consumers */
  visibilityTimeoutSeconds?: number;
  /** Lambda consumers: their access group (default `jobs`) */
  access?: AccessGroup;
}

/** A queue's consumer timeout and visibility; refuses a visibility that a slow Lambda consumer outlives. */
export function queueTimeouts(def: QueueDef) {
  const timeoutSeconds = def.timeoutSeconds ?? JOB_TIMEOUT_SECONDS;
  const minimum = VISIBILITY_PER_TIMEOUT * timeoutSeconds;
  const visibilityTimeoutSeconds = def.visibilityTimeoutSeconds ?? minimum;
  // The session runner is no Lambda: it has no timeout and renews nothing, its queue states its own.
  if (def.consumer !== SESSION_RUNNER_CONSUMER && visibilityTimeoutSeconds < minimum) {
    throw new Error(`queue ${def.name}: visibility ${visibilityTimeoutSeconds}s is under ${minimum}s`);
  }
  return { timeoutSeconds, visibilityTimeoutSeconds };
}

export interface TimerDef {
  name: string;
  handler: string;
  everyMinutes: number;
}

export const API_PREFIX = '/api';

export const http: HttpModule[] = [
  {
    name: 'auth',
    access: 'public',
    routes: [
      'POST /auth/login',
      'POST /auth/refresh_token',
      'DELETE /auth/logout',
      'DELETE /auth/sessions',
      'GET /auth/me',
      'POST /auth/ws-ticket',
      'POST /forgetpassword/{email}',
      'POST /resetpasswords',
    ],
  },
  { name: 'version', access: 'version', routes: ['GET /version'] },
  {
    name: 'whatsapp',
    routes: [
      'GET /whatsapp',
      'GET /whatsapp/{id}',
      'POST /whatsapp',
      'PUT /whatsapp/{id}',
      'DELETE /whatsapp/{id}',
      'GET /whatsapp/{id}/templates',
      'POST /whatsapp/{id}/templates/sync',
      'GET /whatsapp/{id}/usage',
      'POST /whatsapp/{id}/cloud-transport',
      'PUT /whatsapp/{id}/cloud-transport',
      'DELETE /whatsapp/{id}/cloud-transport',
    ],
  },
  {
    name: 'whatsappsession',
    routes: ['POST /whatsappsession/{id}', 'PUT /whatsappsession/{id}', 'DELETE /whatsappsession/{id}'],
  },
  // full-text search over the company's messages and notes (functions/lib/search)
  { name: 'search', routes: ['GET /search'] },
  {
    name: 'tickets',
    routes: [
      'GET /tickets',
      'GET /tickets/u/{uuid}',
      'GET /tickets/{id}',
      'POST /tickets',
      'PUT /tickets/{id}',
      'POST /tickets/{id}/takeover',
      'POST /tickets/{id}/snooze',
      'DELETE /tickets/{id}/snooze',
      'DELETE /tickets/{id}',
      'GET /ticket/kanban',
      'DELETE /ticket-tags/{ticketId}',
      'PUT /ticket-tags/{ticketId}/{tagId}',
    ],
  },
  // one variable name per path level (API Gateway refuses /messages/{ticketId} beside /messages/{id}): {id} is the ticket id for GET/POST
  {
    name: 'messages',
    routes: [
      'GET /messages/{id}',
      'POST /messages/{id}',
      'DELETE /messages/{id}',
      'POST /messages/{id}/resend',
      'POST /messages/{id}/reactions',
    ],
  },
  { name: 'uploads', routes: ['POST /uploads'] },
  { name: 'presence', routes: ['GET /presence'] },
  { name: 'ticket-notes', routes: ['POST /ticket-notes', 'DELETE /ticket-notes/{id}', 'GET /ticket-notes/list'] },
  {
    name: 'contacts',
    routes: [
      'GET /contacts',
      'GET /contacts/list',
      'GET /contacts/duplicates',
      'POST /contacts/duplicates/dismiss',
      'GET /contacts/{id}/merge/{otherId}',
      'POST /contacts/{id}/merge',
      'GET /contacts/{id}',
      'POST /contacts',
      'POST /contacts/upload',
      'POST /contacts/import',
      'PUT /contacts/{id}',
      'DELETE /contacts/{id}',
    ],
  },
  {
    name: 'tags',
    routes: [
      'GET /tags',
      'GET /tags/list',
      'GET /tags/kanban',
      'GET /tags/{id}',
      'POST /tags',
      'POST /tags/sync',
      'PUT /tags/{id}',
      'DELETE /tags/{id}',
    ],
  },
  {
    name: 'chats',
    routes: [
      'GET /chats',
      'POST /chats',
      'PUT /chats/{id}',
      'DELETE /chats/{id}',
      'GET /chats/{id}/messages',
      'POST /chats/{id}/messages',
      'POST /chats/{id}/read',
    ],
  },
  {
    name: 'announcements',
    routes: [
      'GET /announcements',
      'GET /announcements/{id}',
      'POST /announcements',
      'PUT /announcements/{id}',
      'DELETE /announcements/{id}',
      'POST /announcements/{id}/read',
      'POST /announcements/{id}/media-upload',
      'DELETE /announcements/{id}/media-upload',
    ],
  },
  { name: 'dashboard', routes: ['GET /dashboard', 'GET /dashboard/ticketsUsers', 'GET /dashboard/ticketsDay'] },
  { name: 'messages-api', routes: ['POST /messages/send'] },
  {
    name: 'companies',
    access: 'public',
    routes: [
      'POST /companies/cadastro',
      'GET /companies/listPlan/{companyId}',
      'GET /companies',
      'GET /companies/list',
      'GET /companies/{id}',
      'POST /companies',
      'PUT /companies/{id}',
      'DELETE /companies/{id}',
      'POST /companies/{id}/expire',
    ],
  },
  {
    name: 'plans',
    routes: [
      'GET /plans/list',
      'GET /plans/all',
      'GET /plans/{id}',
      'POST /plans',
      'PUT /plans/{id}',
      'DELETE /plans/{id}',
    ],
  },
  { name: 'helps', routes: ['GET /helps', 'GET /helps/list', 'POST /helps', 'PUT /helps/{id}', 'DELETE /helps/{id}'] },
  { name: 'invoices', routes: ['GET /invoices', 'GET /invoices/all', 'GET /invoices/{id}'] },
  // checkout (PIX through the payment port) and the subscription page; the provider's webhook is public and token-checked
  { name: 'subscription', routes: ['GET /subscription', 'POST /subscription', 'POST /payments/asaas/webhook'] },
  // Meta's webhook for Cloud API connections: public, checked by verify token and X-Hub-Signature-256
  {
    name: 'whatsapp-cloud-webhook',
    access: 'cloudWebhook',
    routes: ['GET /webhooks/whatsapp-cloud', 'POST /webhooks/whatsapp-cloud'],
  },
  {
    name: 'users',
    routes: [
      'GET /users',
      'GET /users/list',
      'GET /users/{id}',
      'POST /users',
      'PUT /users/{id}',
      'DELETE /users/{id}',
      'POST /users/set-language/{lang}',
    ],
  },
  { name: 'queues', routes: ['GET /queue', 'GET /queue/{id}', 'POST /queue', 'PUT /queue/{id}', 'DELETE /queue/{id}'] },
  // AI prompts (useOpenAi) and queue integrations (useIntegrations); their calls run in the inbound consumer
  {
    name: 'prompts',
    routes: ['GET /prompt', 'GET /prompt/{id}', 'POST /prompt', 'PUT /prompt/{id}', 'DELETE /prompt/{id}'],
  },
  // the knowledge base (useOpenAi, admins): documents are read for their text here, hence the memory
  {
    name: 'knowledge',
    memory: 1024,
    routes: [
      'GET /knowledge',
      'GET /knowledge/{id}',
      'POST /knowledge',
      'PUT /knowledge/{id}',
      'DELETE /knowledge/{id}',
      'POST /knowledge/search',
    ],
  },
  // the knowledge base's learning (issue 39): unanswered questions and the agent's test bench (admins, useOpenAi)
  {
    name: 'knowledge-learn',
    routes: [
      'GET /knowledge/unanswered',
      'DELETE /knowledge/unanswered/{id}',
      'POST /knowledge/unanswered/{id}/draft',
      'POST /knowledge/test-bench',
    ],
  },
  // the attendant's copilot (issue 39): model calls in the request path, bounded well inside API Gateway's 29 s
  {
    name: 'copilot',
    timeoutSeconds: 29,
    routes: [
      'POST /copilot/{ticketId}/suggest',
      'POST /copilot/{ticketId}/summary',
      'POST /copilot/{ticketId}/rewrite',
      'POST /copilot/{ticketId}/translate',
    ],
  },
  // automation rules (issue 40): admins write them; their runs per rule and per ticket
  {
    name: 'automation-rules',
    routes: [
      'GET /automation-rules',
      'POST /automation-rules',
      'POST /automation-rules/dry-run',
      'GET /automation-rules/{id}',
      'PUT /automation-rules/{id}',
      'DELETE /automation-rules/{id}',
      'GET /automation-rules/{id}/runs',
      'GET /tickets/{id}/automation-runs',
    ],
  },
  // custom fields (issue 40): definitions (admins write) and values on contacts and tickets
  {
    name: 'custom-fields',
    routes: [
      'GET /custom-fields',
      'POST /custom-fields',
      'PUT /custom-fields/{id}',
      'DELETE /custom-fields/{id}',
      'PUT /contacts/{id}/custom-fields',
      'PUT /tickets/{id}/custom-fields',
    ],
  },
  // contact segments (issue 40): named contact filters, the audience of campaigns
  {
    name: 'segments',
    routes: ['GET /segments', 'GET /segments/{id}', 'POST /segments', 'PUT /segments/{id}', 'DELETE /segments/{id}'],
  },
  {
    name: 'queue-integrations',
    routes: [
      'GET /queueIntegration',
      'GET /queueIntegration/{id}',
      'POST /queueIntegration',
      'PUT /queueIntegration/{id}',
      'DELETE /queueIntegration/{id}',
      'POST /queueIntegration/testSession',
    ],
  },
  {
    name: 'queue-options',
    routes: ['GET /queue-options', 'POST /queue-options', 'PUT /queue-options/{id}', 'DELETE /queue-options/{id}'],
  },
  {
    name: 'settings',
    routes: ['GET /settings', 'PUT /settings/{key}', 'GET /companies/{id}/schedules', 'PUT /companies/{id}/schedules'],
  },
  {
    name: 'quick-messages',
    routes: [
      'GET /quick-messages',
      'GET /quick-messages/list',
      'GET /quick-messages/{id}',
      'POST /quick-messages',
      'PUT /quick-messages/{id}',
      'DELETE /quick-messages/{id}',
      'POST /quick-messages/{id}/media-upload',
      'DELETE /quick-messages/{id}/media-upload',
    ],
  },
  {
    name: 'schedules',
    routes: [
      'GET /schedules',
      'GET /schedules/{id}',
      'POST /schedules',
      'PUT /schedules/{id}',
      'DELETE /schedules/{id}',
      'POST /schedules/{id}/media-upload',
      'DELETE /schedules/{id}/media-upload',
    ],
  },
  {
    name: 'contact-lists',
    // a 10,000-row spreadsheet import writes in batches well inside this
    timeoutSeconds: 29,
    memory: 1024,
    routes: [
      'GET /contact-lists',
      'GET /contact-lists/list',
      'GET /contact-lists/sample',
      'GET /contact-lists/{id}',
      'POST /contact-lists',
      'PUT /contact-lists/{id}',
      'DELETE /contact-lists/{id}',
      'POST /contact-lists/{id}/upload',
      'GET /contact-list-items',
      'GET /contact-list-items/{id}',
      'POST /contact-list-items',
      'PUT /contact-list-items/{id}',
      'DELETE /contact-list-items/{id}',
    ],
  },
  {
    name: 'campaigns',
    routes: [
      'GET /campaigns',
      'GET /campaigns/limits',
      'GET /campaigns/{id}',
      'GET /campaigns/{id}/report',
      'POST /campaigns',
      'PUT /campaigns/{id}',
      'DELETE /campaigns/{id}',
      'POST /campaigns/{id}/cancel',
      'POST /campaigns/{id}/restart',
      'POST /campaigns/{id}/media-upload',
      'DELETE /campaigns/{id}/media-upload',
      'GET /campaign-settings',
      'POST /campaign-settings',
    ],
  },
  {
    name: 'files',
    routes: [
      'GET /files',
      'GET /files/{id}',
      'POST /files',
      'PUT /files/{id}',
      'DELETE /files/{id}',
      'POST /files/uploadList/{id}',
    ],
  },
  // the audit trail: admins read their company's, super users every company's (by day)
  { name: 'audit', routes: ['GET /audit'] },
  // the operator's view of the WhatsApp fleet: runners, wanted sessions and queues (super users only)
  { name: 'fleet', access: 'fleet', routes: ['GET /fleet', 'POST /fleet/queues/{name}/redrive'] },
  // Web Push: any signed-in user's devices and what is pushed to each (a group of its own: the VAPID secret)
  {
    name: 'push',
    access: 'pushApi',
    routes: [
      'GET /push/config',
      'POST /push/subscriptions',
      'GET /push/subscriptions',
      'PUT /push/subscriptions/{id}',
      'DELETE /push/subscriptions/{id}',
    ],
  },
];

export const ws = {
  connect: 'ws/connect',
  disconnect: 'ws/disconnect',
  default: 'ws/default',
} as const;

export const queues: QueueDef[] = [
  // API -> session runner: start, QR, disconnect, send, delete, check number (FIFO per connection)
  // (a command for a session another runner holds is forwarded or waits out a dead holder: a takeover
  // may cost a receive or two, hence more receives before the dead-letter queue)
  {
    name: 'session-commands',
    fifo: true,
    consumer: SESSION_RUNNER_CONSUMER,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 10,
  },
  // session runner -> API: messages, acks, session status (FIFO per connection and chat)
  // (AI prompts and integrations answer from this consumer: timeout x retries with backoff, see AI_TIMEOUT_MS)
  { name: 'inbound', fifo: true, consumer: 'jobs/inbound', timeoutSeconds: 120 },
  // API -> Meta's Graph API: sends of Cloud API connections (FIFO per connection); each claimed once, never resent
  // a rate limit of Meta's fails the record and SQS retries it: ten receives outlast a throughput limit
  { name: 'cloud-commands', fifo: true, consumer: 'jobs/cloud-send', maxReceiveCount: 10 },
  // sends routed to WhatsApp Web on a number with both transports, checked FAILOVER_AFTER_SECONDS later:
  // one no runner took goes through the Cloud API (standard queue: per-message delay)
  {
    name: 'transport-failover',
    fifo: false,
    consumer: 'jobs/transport-failover',
    maxReceiveCount: 5,
    delayedIsScheduled: true,
  },
  // campaigns: planning pages, paced send steps (per-message delays, chained past 15 min), list number checks
  { name: 'campaigns', fifo: false, consumer: 'jobs/campaigns', maxReceiveCount: 5 },
  // timer -> sender of due scheduled messages (the table is the truth; 4 tries, then status ERRO)
  // visibility stated here because dispatch derives its recheck time from it
  {
    name: 'schedules',
    fifo: false,
    consumer: 'jobs/schedules-send',
    maxReceiveCount: 4,
    timeoutSeconds: 30,
    visibilityTimeoutSeconds: 180,
  },
  // push events (pending ticket, customer message, chat mention, SLA breach) -> Web Push to the users' devices;
  // a failed device is re-queued on its own (a `deliver` job), then retried by SQS
  { name: 'push', fifo: false, consumer: 'jobs/push', access: 'pushSender', timeoutSeconds: 30 },
  // ticket events -> the company's automation rules (standard queue: a rule's actions are idempotent enough
  // that a rare redelivery is logged as a second run, never lost)
  { name: 'automation', fifo: false, consumer: 'jobs/automation', maxReceiveCount: 3, timeoutSeconds: 60 },
];

export const timers: TimerDef[] = [
  // due scheduled messages, across every company (platform-wide due index)
  { name: 'schedules', handler: 'jobs/schedules-due', everyMinutes: 1 },
  // PROGRAMADA campaigns whose time came, and running campaigns whose send chain was lost
  { name: 'campaigns', handler: 'jobs/campaigns-due', everyMinutes: 1 },
  // chatbot wake-ups: timeToTransfer, expiresTicket, unanswered ratings
  { name: 'whatsapp-timers', handler: 'jobs/whatsapp-timers', everyMinutes: 1 },
  // sent messages still without a delivery ack UNDELIVERED_AFTER_MINUTES later (platform-wide wake-ups)
  { name: 'undelivered', handler: 'jobs/undelivered', everyMinutes: 1 },
  // service-level deadlines (issue 24) that passed: the ticket is marked breached once, its attendant and admins told
  { name: 'sla', handler: 'jobs/sla', everyMinutes: 1 },
  // snoozed tickets (issue 40) whose time came: back in their open lists, marked, their attendant told
  { name: 'snooze', handler: 'jobs/snooze-due', everyMinutes: 1 },
  // automation rules (issue 40): waits that ended, and "no reply for N minutes" checks that fell due
  { name: 'automation', handler: 'jobs/automation-due', everyMinutes: 1 },
  // invoices before each company's due date (one per period), and pausing expired companies' connections
  { name: 'invoices', handler: 'jobs/invoices', everyMinutes: 30 },
  // deleted companies: their items, media and WhatsApp sessions, removed in the background (platform-wide index)
  { name: 'company-cleanup', handler: 'jobs/company-cleanup', everyMinutes: 5 },
  // Cloud API connections: their status asked of the Graph API again, hourly each (platform-wide wake-ups)
  { name: 'cloud-status', handler: 'jobs/cloud-status', everyMinutes: 15 },
];

/**
 * Consumers of the table's change stream. On AWS a Lambda on the DynamoDB stream, deployed only with
 * the `search=on` context value; locally the stream poller of DynamoDB Local (infra/local/streams.ts).
 */
export interface StreamConsumerDef {
  name: string;
  handler: string;
  access: AccessGroup;
  batchSize: number;
  /** the longest a batch waits to fill (AWS MaximumBatchingWindowInSeconds): the index lag budget */
  batchingWindowSeconds: number;
}
export const streamConsumers: StreamConsumerDef[] = [
  {
    name: 'search-index',
    handler: 'jobs/search-index',
    access: 'searchIndexer',
    batchSize: 100,
    batchingWindowSeconds: 1,
  },
];

export const manifest = { http, ws, queues, timers, streamConsumers };

/** `GET /tickets/{id}` -> `{ method: 'GET', path: '/tickets/{id}' }` */
export function splitRouteKey(key: RouteKey) {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as HttpMethod, path: key.slice(space + 1) };
}
