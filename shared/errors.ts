/**
 * The error catalogue (attendance.md section 8). The server answers `{ "error": CODE }` with the
 * status given here; the web app translates the code into a toast.
 */
export const ERROR_STATUS = {
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  /** the connection's number checks of the day are used up (campaigns/check-budget.ts) */
  ERR_NUMBER_CHECK_BUDGET: 429,
  /** WhatsApp restricted the connection (reach-out lock, a check refused): no checks until it ends */
  ERR_NUMBER_CHECK_RESTRICTED: 429,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Codes of our own for cases the catalogue does not name.
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_ROUTE_NOT_FOUND: 404,
  ERR_COMPANY_EXPIRED: 401,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_PLAN_LIMIT_REACHED: 403,
  ERR_INVALID_CURSOR: 400,
  // full-text search is not deployed (AWS without the `search=on` context value)
  ERR_SEARCH_DISABLED: 404,
  ERR_TOO_MANY_ATTEMPTS: 429,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_DUPLICATED: 409,
  ERR_INVALID_RESET_CODE: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UPLOAD_TYPE_NOT_ALLOWED: 415,
  ERR_CONFLICT: 409,
  ERR_FORBIDDEN_ORIGIN: 403,
  ERR_MESSAGE_NOT_RESENDABLE: 409,
  /** a reaction to a message WhatsApp cannot name: not sent yet (no WhatsApp id), deleted, or a placeholder */
  ERR_MESSAGE_NOT_REACTABLE: 409,
  /** the company's AI calls for the month are spent (its own cap or its plan's) */
  ERR_AI_BUDGET_SPENT: 429,
  /** an unanswered question of the knowledge base that is not there (dismissed, or another company's) */
  ERR_KNOWLEDGE_QUESTION_NOT_FOUND: 404,
  /** a knowledge base document: not a PDF, DOCX, plain text or Markdown file */
  ERR_KNOWLEDGE_FILE_TYPE: 415,
  /** a knowledge base document that cannot be read (damaged, encrypted, not what its type says) */
  ERR_KNOWLEDGE_FILE_UNREADABLE: 422,
  /** a knowledge base document with no text (a scanned PDF, an empty file) */
  ERR_KNOWLEDGE_EMPTY: 422,
  /** a knowledge base document over KNOWLEDGE_MAX_FILE_BYTES, or whose text is over KNOWLEDGE_MAX_BODY */
  ERR_KNOWLEDGE_TOO_LARGE: 413,
  /** a campaign that is running, finished, or scheduled within the hour (management.md 4) */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  // Platform and billing (issue 10).
  /** the company's due date has passed: its admins reach only invoices, checkout and their session */
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_PLAN_IN_USE: 409,
  ERR_INVOICE_ALREADY_PAID: 409,
  ERR_PAYMENT_NOT_CONFIGURED: 503,
  ERR_PAYMENT_PROVIDER: 502,
  ERR_PAYMENT_REFUSED: 422,
  ERR_INVALID_WEBHOOK_TOKEN: 401,
  ERR_PLATFORM_COMPANY: 400,
  /** an AI or bot provider (Dialogflow test session) failed or timed out (issue 13) */
  ERR_INTEGRATION_PROVIDER: 502,
  // Push notifications (issue 25).
  /** a push subscription endpoint that is not https on a known push service */
  ERR_PUSH_ENDPOINT_NOT_ALLOWED: 400,
  ERR_PUSH_SUBSCRIPTION_NOT_FOUND: 404,
  /** no VAPID keys yet (on AWS the seed makes them after deployment) */
  ERR_PUSH_NOT_CONFIGURED: 503,
  // Teamwork (issue 24).
  /** the ticket is being handled by another attendant: only its assignee sends in it (take it over first) */
  ERR_TICKET_LOCKED: 403,
  /** a takeover of a ticket nobody else holds (pending or closed: accept or reopen it instead) */
  ERR_TICKET_NOT_LOCKED: 409,
  // Snooze (issue 40).
  /** a snooze time in the past, or more than SNOOZE_MAX_DAYS ahead */
  ERR_SNOOZE_TIME_INVALID: 400,
  /** only an open ticket is snoozed (accept a pending one, reopen a closed one) */
  ERR_SNOOZE_NOT_OPEN: 409,
  // Contact merge (issue 27).
  /** a contact merged with itself, or marked "not a duplicate" of itself */
  ERR_MERGE_SAME_CONTACT: 400,
  /** groups are not merged */
  ERR_MERGE_GROUP: 400,
  /** one of the two contacts is being merged into a third one */
  ERR_MERGE_IN_PROGRESS: 409,
  /** a per-user list is full (`details`: which list and its cap): deleting one frees a slot */
  ERR_LIST_LIMIT_REACHED: 409,
  // The WhatsApp Business Cloud API as a connection type (issue 36).
  /** a call a Cloud API number cannot serve: QR code, pairing, session restart, number checks, address book, groups, calls */
  ERR_NOT_SUPPORTED_BY_CLOUD: 400,
  /** another connection (of any company) already holds this Cloud API phone-number id */
  ERR_CLOUD_NUMBER_IN_USE: 409,
  /**
   * a free-form message to a customer of a Cloud API number outside the 24-hour window since their
   * last message (`details.windowEndsAt`: when it closed, null if they never wrote): only an
   * approved template may be sent then
   */
  ERR_CLOUD_WINDOW_CLOSED: 409,
  /** a webhook whose X-Hub-Signature-256 is missing or does not match the app secret */
  ERR_INVALID_WEBHOOK_SIGNATURE: 401,
  /** message templates are Meta's: only a Cloud API connection has them and sends them */
  ERR_TEMPLATES_NEED_CLOUD: 400,
  /** WhatsApp locked new chats from the number (its reach-out lock): replies in open chats still go */
  ERR_REACHOUT_LOCKED: 409,
  /** no template of that name and language on the connection (synced from its WhatsApp Business Account) */
  ERR_TEMPLATE_NOT_FOUND: 404,
  /** the template is not approved, or has parts the product cannot fill (`details`: status, unsupported) */
  ERR_TEMPLATE_NOT_SENDABLE: 409,
  /** the Graph API did not answer the template sync (`details.reason`: tokenExpired, graphUnavailable ...) */
  ERR_TEMPLATE_SYNC_FAILED: 502,
  // One number, two transports (issue 36, item 6).
  /** the WhatsApp Web connection already has a Cloud API transport (detach it first) */
  ERR_TRANSPORT_ATTACHED: 409,
  /** the connection has no Cloud API transport */
  ERR_TRANSPORT_NOT_ATTACHED: 404,
  /** the WhatsApp Web session was never paired: its number is unknown, so nothing can be compared with it */
  ERR_TRANSPORT_NUMBER_UNKNOWN: 409,
  /** the Graph API did not confirm the phone-number id with that token (`details.reason`: tokenExpired, numberNotRegistered ...) */
  ERR_TRANSPORT_UNREACHABLE: 409,
  /** the Cloud API number is not the WhatsApp Web session's number (`details`: the last digits of both) */
  ERR_TRANSPORT_NUMBER_MISMATCH: 409,
  // The attendant's copilot (issue 39, item 5).
  /** no prompt to answer with: the company chose none for the copilot and the ticket's queue has none */
  ERR_COPILOT_UNAVAILABLE: 409,
  /** the prompt's AI provider failed or timed out (after its retries): nothing was suggested */
  ERR_COPILOT_FAILED: 502,
  // Custom fields (issue 40).
  /** a custom field of the same entity already has this key (`details.key`) */
  ERR_CUSTOM_FIELD_KEY_TAKEN: 409,
  // Automation rules (issue 40).
  /** a rule names a queue, user, tag, quick message or custom field the company lacks, or a value of the wrong type (`details.path`) */
  ERR_AUTOMATION_REFERENCE: 422,
  /** a `matches` pattern that is not a valid or safe regular expression (could backtrack without bound) */
  ERR_AUTOMATION_UNSAFE_PATTERN: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}

/** Body of every error response. `details` carries validation issues or conflict context. */
export interface ErrorBody {
  error: ErrorCode;
  message?: string;
  details?: unknown;
  requestId?: string;
}
