import middy from '@middy/core';
import { settleBeforeFreeze } from './after-answer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { z, ZodType } from 'zod';
import type { Permission } from '#shared/permissions';
import { can } from '#shared/permissions';
import type { PlanFeature } from '#shared/plans';
import type { ErrorBody } from '#shared/errors';
import { API_PREFIX } from '../../infra/manifest';
import { AppError } from './errors';
import { assertViaCloudFront, clientAddress } from './origin';
import { log, setLogContext, withLogContext } from './log';
import { metrics } from './metrics';
import { authenticate, type AuthContext } from './auth';
import { companyPlan } from './accounts/companies';
import { currentSession } from './accounts/sessions';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}

export interface RouteOptions<
  B extends ZodType | undefined,
  Q extends ZodType | undefined,
  P extends ZodType | undefined,
> {
  /** no session needed (login, signup, version ...) */
  public?: boolean;
  permission?: Permission;
  feature?: PlanFeature;
  /** platform super users only */
  super?: boolean;
  /** reachable by the restricted session of an expired company (session, invoices, checkout) */
  whileExpired?: boolean;
  body?: B;
  query?: Q;
  params?: P;
}

type Infer<S> = S extends ZodType ? z.infer<S> : undefined;

export interface RequestContext<B, Q, P> {
  auth: AuthContext;
  body: B;
  query: Q;
  params: P;
  event: HttpEvent;
  requestId: string;
  /** the client's address, for rate limits (see clientAddress in origin.ts) */
  clientAddress: string;
  headers: Record<string, string | undefined>;
  cookies: Record<string, string>;
}

type AnySchema = ZodType | undefined;

export interface Route {
  options: RouteOptions<AnySchema, AnySchema, AnySchema>;
  run: (ctx: RequestContext<unknown, unknown, unknown>) => Promise<Reply | unknown>;
}

/** Declares one route: its guards and schemas, then the handler that calls a service. */
export function route<
  B extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  P extends ZodType | undefined = undefined,
>(
  options: RouteOptions<B, Q, P>,
  run: (ctx: RequestContext<Infer<B>, Infer<Q>, Infer<P>>) => Promise<Reply | unknown>,
): Route {
  // The schemas in `options` produce exactly the values `run` expects; the router erases them.
  return { options, run: run as Route['run'] };
}

/** A reply with a status, headers or cookies; a plain value is answered as 200 JSON. */
export const reply = (
  body: unknown,
  status = 200,
  extra: Omit<Reply, 'body' | 'status'> = {},
): Reply & { __reply: true } => ({
  __reply: true,
  body,
  status,
  ...extra,
});

function parseCookies(event: HttpEvent): Record<string, string> {
  const out: Record<string, string> = {};
  const all = event.cookies ?? (event.headers?.cookie ? event.headers.cookie.split(';') : []);
  for (const pair of all) {
    const i = pair.indexOf('=');
    if (i > 0) {
      const value = decodeCookie(pair.slice(i + 1).trim());
      if (value !== undefined) out[pair.slice(0, i).trim()] = value;
    }
  }
  return out;
}

/** A value that is not valid percent-encoding is not ours (we set only encoded values): ignored. */
function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function parseBody(event: HttpEvent): unknown {
  if (!event.body) return {};
  const contentType = event.headers?.['content-type'] ?? '';
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (contentType.includes('application/json') || /^\s*[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new AppError('ERR_VALIDATION', 400, [{ path: [], message: 'invalid json' }]);
    }
  }
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
}

/**
 * Query strings with repeated keys (`tags[]=1&tags[]=2`) become arrays. Collected in a Map, so a key
 * such as `__proto__` or `constructor` is a key like any other, then handed over as own properties.
 */
export function parseQuery(event: Pick<HttpEvent, 'rawQueryString'>): Record<string, unknown> {
  const out = new Map<string, unknown>();
  const search = new URLSearchParams(event.rawQueryString ?? '');
  for (const [rawKey, value] of search) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    if (out.has(key)) out.set(key, ([] as unknown[]).concat(out.get(key), value));
    else out.set(key, rawKey.endsWith('[]') ? [value] : value);
  }
  return Object.fromEntries(out);
}

function validate<S extends ZodType>(schema: S | undefined, value: unknown) {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError(
      'ERR_VALIDATION',
      400,
      result.error.issues.map((i) => ({ path: i.path, message: i.message })),
    );
  }
  return result.data;
}

/** JSON, unless a reply says `text/plain` for a string body (a webhook's verification echo). */
const json = (status: number, body: unknown, headers: Record<string, string> = {}, cookies?: string[]): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', ...headers },
  body:
    body === undefined
      ? ''
      : typeof body === 'string' && headers['content-type']?.startsWith('text/plain')
        ? body
        : JSON.stringify(body),
  cookies,
});

const isReply = (out: unknown): out is Reply =>
  typeof out === 'object' && out !== null && (out as { __reply?: unknown }).__reply === true;

/** Removes `/api` from a route key so modules are written against the manifest's paths. */
export function normalizeRouteKey(routeKey: string) {
  const [method, path] = routeKey.split(' ');
  return `${method} ${path?.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path}`;
}

/** The token proves who signed in; the stored session and user decide what they may do now. */
async function guard(options: Route['options'], event: HttpEvent): Promise<AuthContext> {
  const claims = await authenticate(event);
  if (!claims) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const auth = await currentSession(claims);
  if (auth.restricted && !options.whileExpired) throw new AppError('ERR_SUBSCRIPTION_EXPIRED');
  if (options.super && !auth.super) throw new AppError('ERR_NO_PERMISSION');
  if (options.permission && !can(auth.profile, options.permission)) throw new AppError('ERR_NO_PERMISSION');
  if (options.feature) {
    const plan = await companyPlan(auth.companyId);
    if (!plan?.[options.feature]) throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  }
  return auth;
}

export const PUBLIC_AUTH: AuthContext = { companyId: 0, userId: 0, profile: 'user', super: false, public: true };

/**
 * Turns a module's routes into one Lambda handler: routes by the event's route key, authenticates,
 * authorizes by permission / plan feature, validates with the shared schemas, maps errors to
 * `{ error: CODE }` and writes one structured log line per request.
 */
export function httpModule(routes: Record<string, Route>) {
  const core = async (event: HttpEvent): Promise<HttpResult> => {
    const requestId = event.requestContext?.requestId ?? randomUUID();
    const started = Date.now();
    const key = normalizeRouteKey(event.routeKey);
    setLogContext({ requestId, route: key });
    let status = 500;
    try {
      await assertViaCloudFront(event);
      const found = Object.hasOwn(routes, key) ? routes[key] : undefined;
      if (!found) throw new AppError('ERR_ROUTE_NOT_FOUND');
      const auth = found.options.public ? PUBLIC_AUTH : await guard(found.options, event);
      if (!auth.public) setLogContext({ companyId: auth.companyId, userId: auth.userId });
      const ctx: RequestContext<unknown, unknown, unknown> = {
        auth,
        requestId,
        event,
        headers: event.headers ?? {},
        clientAddress: clientAddress(event),
        cookies: parseCookies(event),
        params: validate(found.options.params, event.pathParameters ?? {}),
        query: validate(found.options.query, parseQuery(event)),
        body: found.options.body ? validate(found.options.body, parseBody(event)) : undefined,
      };
      const out = await found.run(ctx);
      if (isReply(out)) {
        status = out.status ?? 200;
        return json(status, out.body, out.headers, out.cookies);
      }
      status = 200;
      return json(200, out);
    } catch (err) {
      if (err instanceof AppError) {
        status = err.status;
        const body: ErrorBody = { error: err.code, ...(err.details !== undefined ? { details: err.details } : {}) };
        return json(err.status, body);
      }
      log.error('unhandled error', { error: (err as Error)?.message, stack: (err as Error)?.stack });
      status = 500;
      return json(500, { error: 'ERR_INTERNAL_SERVER_ERROR', requestId } satisfies ErrorBody);
    } finally {
      log.info('request', { status, ms: Date.now() - started });
    }
  };
  // each request logs in its own context (see log.ts)
  // the route table stays readable on the handler: the fuzz suite derives bad inputs from its schemas
  return Object.assign(
    middy(async (event: HttpEvent) => {
      const result = await withLogContext({}, () => metrics.request(() => core(event)));
      await settleBeforeFreeze();
      return result;
    }),
    { routes },
  );
}
