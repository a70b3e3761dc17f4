/**
 * Server configuration, read from the environment once per cold start. Nothing else in
 * functions/ reads process.env. Local endpoints are set only by the local runtime.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing environment variable ${name}`);
  return value;
}
const optional = (name: string) => process.env[name] || undefined;
function integer(name: string, fallback: number): number {
  const value = optional(name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`environment variable ${name} must be a whole number`);
  return Number(value);
}

export interface Config {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  mediaBucket: string;
  sqsEndpoint?: string;
  /** queue name -> queue URL (Maps: a name a caller gives, such as `constructor`, finds nothing else) */
  queueUrls: ReadonlyMap<string, string>;
  /** dead-letter queue URLs by queue (`DLQ_URL_<NAME>`): only the fleet view has them */
  deadLetterUrls: ReadonlyMap<string, string>;
  /** WebSocket management API endpoint (https://.../stage, or the local gateway) */
  wsEndpoint?: string;
  jwtSecret?: string;
  jwtSecretArn?: string;
  /** the data key (DATA_KEY_SECRET locally, DATA_KEY_SECRET_ARN on AWS): seals what companies store */
  dataKeySecret?: string;
  dataKeySecretArn?: string;
  /** origin of the web app, for cookies and CORS */
  appOrigin?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** local runtime only: log e-mails instead of sending them */
  mailLog: boolean;
  /** AWS only: secret holding the header value CloudFront adds; unset locally (no CloudFront) */
  originVerifySecretArn?: string;
  /** sender identity for SES (MAIL_FROM); mail goes out through SES when it is set and MAIL_LOG is not */
  mailFrom?: string;
  /** log2 of the scrypt cost N for new password hashes (PASSWORD_HASH_COST, default 17) */
  passwordHashCost: number;
  /** seconds a Lambda instance trusts a checked session before reading it again (SESSION_CACHE_SECONDS) */
  sessionCacheSeconds: number;
  /**
   * milliseconds one DynamoDB request may take before it is abandoned and retried by the SDK
   * (DYNAMODB_REQUEST_TIMEOUT_MS, default 8000): without it a stalled connection holds the call,
   * and a runner's write, for minutes
   */
  dynamoRequestTimeoutMs: number;
  /** the same for the writes that must not wait (the runner's heartbeat; DYNAMODB_URGENT_TIMEOUT_MS, default 2000) */
  dynamoUrgentTimeoutMs: number;
  /** client addresses the per-address rate limits skip (RATE_LIMIT_EXEMPT_ADDRESSES, comma list; local tests) */
  rateLimitExemptAddresses: string[];
  /** local runtime only (PAYMENTS_SANDBOX=1): without an Asaas key, charges go to the sandbox provider */
  paymentsSandbox: boolean;
  /** Asaas API base (ASAAS_URL; the local stack points it at its fake) */
  asaasUrl: string;
  /** milliseconds one second of campaign pacing lasts (CAMPAIGN_SECOND_MS, default 1000; tests shrink it) */
  campaignSecondMs: number;
  /** Meta's Graph API base with its version (WHATSAPP_GRAPH_URL; the local stack points it at its fake) */
  whatsappGraphUrl: string;
  /** OpenAI-compatible chat-completions base (OPENAI_BASE_URL, default OpenAI's; the local stack points it at its fake) */
  openAiBaseUrl: string;
  /** Dialogflow API base and Google OAuth token endpoint (DIALOGFLOW_API_URL, DIALOGFLOW_TOKEN_URL) */
  dialogflowApiUrl: string;
  dialogflowTokenUrl: string;
  /** AI prompts and integrations: per-call timeout, retries after the first attempt, first backoff (doubles) */
  aiTimeoutMs: number;
  aiRetries: number;
  aiRetryBaseMs: number;
  /** all provider calls for one inbound message end within this (AI_BUDGET_MS; the consumer has 120 s) */
  aiBudgetMs: number;
  /** local runtime only (PROVIDER_PRIVATE_URLS=1): integration URLs may name loopback and private addresses (the fakes) */
  providerPrivateUrls: boolean;
  /** Web Push VAPID keys: VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY locally, the secret VAPID_SECRET_ARN on AWS */
  vapidPublicKey?: string;
  vapidPrivateKey?: string;
  vapidSecretArn?: string;
  /** the VAPID `sub` claim: an https: URL (the app on AWS) or a mailto: address (VAPID_SUBJECT) */
  vapidSubject?: string;
  /** local runtime only (PUSH_FAKE_ORIGIN): the fake push service's origin, accepted as a subscription endpoint */
  pushFakeOrigin?: string;
  /** search on AWS: the OpenSearch domain's endpoint (SEARCH_ENDPOINT, https://...) and index (SEARCH_INDEX) */
  searchEndpoint?: string;
  searchIndex: string;
  /** search locally: where the embedded index persists (SEARCH_DIR, `<dataDir>/search`); unset, in memory */
  searchDir?: string;
  /** SEARCH=off: no search index (AWS without `search=on`): /search answers ERR_SEARCH_DISABLED */
  searchOff: boolean;
}

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const queueUrls = new Map<string, string>();
  const deadLetterUrls = new Map<string, string>();
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('QUEUE_URL_') && value) queueUrls.set(key.slice('QUEUE_URL_'.length).toLowerCase(), value);
    if (key.startsWith('DLQ_URL_') && value) deadLetterUrls.set(key.slice('DLQ_URL_'.length).toLowerCase(), value);
  }
  cached = {
    tableName: required('TABLE_NAME'),
    region: process.env.AWS_REGION || 'us-east-1',
    dynamoEndpoint: optional('DYNAMODB_ENDPOINT'),
    s3Endpoint: optional('S3_ENDPOINT'),
    mediaBucket: required('MEDIA_BUCKET'),
    sqsEndpoint: optional('SQS_ENDPOINT'),
    queueUrls,
    deadLetterUrls,
    wsEndpoint: optional('WS_ENDPOINT'),
    jwtSecret: optional('JWT_SECRET'),
    jwtSecretArn: optional('JWT_SECRET_ARN'),
    dataKeySecret: optional('DATA_KEY_SECRET'),
    dataKeySecretArn: optional('DATA_KEY_SECRET_ARN'),
    appOrigin: optional('APP_ORIGIN'),
    logLevel: (optional('LOG_LEVEL') as Config['logLevel']) ?? 'info',
    mailLog: optional('MAIL_LOG') === '1',
    originVerifySecretArn: optional('ORIGIN_VERIFY_SECRET_ARN'),
    mailFrom: optional('MAIL_FROM'),
    passwordHashCost: integer('PASSWORD_HASH_COST', 17),
    sessionCacheSeconds: integer('SESSION_CACHE_SECONDS', 5),
    dynamoRequestTimeoutMs: integer('DYNAMODB_REQUEST_TIMEOUT_MS', 8_000),
    dynamoUrgentTimeoutMs: integer('DYNAMODB_URGENT_TIMEOUT_MS', 2_000),
    rateLimitExemptAddresses: (optional('RATE_LIMIT_EXEMPT_ADDRESSES') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    paymentsSandbox: optional('PAYMENTS_SANDBOX') === '1',
    asaasUrl: optional('ASAAS_URL') ?? 'https://api.asaas.com/v3',
    campaignSecondMs: integer('CAMPAIGN_SECOND_MS', 1000),
    whatsappGraphUrl: optional('WHATSAPP_GRAPH_URL') ?? 'https://graph.facebook.com/v23.0',
    openAiBaseUrl: optional('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
    dialogflowApiUrl: optional('DIALOGFLOW_API_URL') ?? 'https://dialogflow.googleapis.com',
    dialogflowTokenUrl: optional('DIALOGFLOW_TOKEN_URL') ?? 'https://oauth2.googleapis.com/token',
    aiTimeoutMs: integer('AI_TIMEOUT_MS', 15_000),
    aiRetries: integer('AI_RETRIES', 2),
    aiRetryBaseMs: integer('AI_RETRY_BASE_MS', 1000),
    aiBudgetMs: integer('AI_BUDGET_MS', 60_000),
    providerPrivateUrls: optional('PROVIDER_PRIVATE_URLS') === '1',
    vapidPublicKey: optional('VAPID_PUBLIC_KEY'),
    vapidPrivateKey: optional('VAPID_PRIVATE_KEY'),
    vapidSecretArn: optional('VAPID_SECRET_ARN'),
    vapidSubject: optional('VAPID_SUBJECT'),
    pushFakeOrigin: optional('PUSH_FAKE_ORIGIN'),
    searchEndpoint: optional('SEARCH_ENDPOINT'),
    searchIndex: optional('SEARCH_INDEX') ?? 'messages',
    searchDir: optional('SEARCH_DIR'),
    searchOff: optional('SEARCH') === 'off',
  };
  return cached;
}

/** The local runtime and tests change the environment between stacks. */
export function resetConfig() {
  cached = undefined;
}
