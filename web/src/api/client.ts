import { config } from '../config';
import { sessionStore } from '../auth/storage';
import { ApiError } from './errors';

type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** public calls (login, signup, reset) carry no token and never trigger the refresh/logout flow */
  public?: boolean;
  signal?: AbortSignal;
}

export interface RefreshResult {
  token: string;
  user: { id: number; companyId: number };
  company?: { dueDate: string | null };
}

type Fetch = typeof fetch;

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The one API client (attendance.md 4.1). It adds the bearer token; a 403 ERR_SESSION_EXPIRED
 * (expired access token) triggers ONE refresh through the httpOnly cookie while other calls wait
 * for it and are retried; a failed refresh, a 401, or a 403 after the retry logs the user out.
 */
export class ApiClient {
  private refreshing: Promise<string | null> | null = null;
  onLogout: () => void = () => {};
  onRefreshed: (r: RefreshResult) => void = () => {};

  constructor(
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
    private readonly baseUrl: () => string = () => config().apiUrl,
  ) {}

  get<T>(path: string, query?: Query, signal?: AbortSignal) {
    return this.request<T>('GET', path, { query, signal });
  }
  post<T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body'> = {}) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  put<T>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, { body });
  }
  delete<T>(path: string, query?: Query) {
    return this.request<T>('DELETE', path, { query });
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, opts);
    if (res.ok) return this.parse<T>(res);
    const failure = await this.failure(res);
    if (opts.public) throw failure;
    if (res.status === 403 && failure.code === 'ERR_SESSION_EXPIRED') {
      const token = await this.refresh();
      if (!token) throw failure;
      const retry = await this.send(method, path, opts);
      if (retry.ok) return this.parse<T>(retry);
      const again = await this.failure(retry);
      if (retry.status === 401 || (retry.status === 403 && again.code === 'ERR_SESSION_EXPIRED')) this.logout();
      throw again;
    }
    if (res.status === 401) this.logout();
    throw failure;
  }

  /** One refresh at a time; concurrent callers share it (their calls are queued behind it). */
  refresh(): Promise<string | null> {
    if (!this.refreshing) {
      this.refreshing = this.send('POST', '/auth/refresh_token', { public: true })
        .then(async (res) => {
          if (!res.ok) {
            this.logout();
            return null;
          }
          const data = (await res.json()) as RefreshResult;
          sessionStore.setToken(data.token);
          this.onRefreshed(data);
          return data.token;
        })
        .catch(() => {
          this.logout();
          return null;
        })
        .finally(() => {
          this.refreshing = null;
        });
    }
    return this.refreshing;
  }

  private logout() {
    sessionStore.clear();
    this.onLogout();
  }

  private send(method: string, path: string, opts: RequestOptions) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = opts.public ? null : sessionStore.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    return this.fetchImpl(`${this.baseUrl()}${path}${buildQuery(opts.query)}`, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: opts.signal,
    });
  }

  private async parse<T>(res: Response): Promise<T> {
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async failure(res: Response): Promise<ApiError> {
    let body: { error?: string; details?: unknown } = {};
    try {
      body = await res.json();
    } catch {
      // non-JSON error bodies keep only the status
    }
    return new ApiError(res.status, body.error, body.details);
  }
}

export const api = new ApiClient();
