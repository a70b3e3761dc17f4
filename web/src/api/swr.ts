import useSWR, { type SWRConfiguration } from 'swr';
import { api } from './client';

export type QueryParams = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

/** SWR keys are `[path, query]`, so realtime handlers can match every cached page of a resource. */
export type ApiKey = readonly [string, QueryParams?];

export const apiFetcher = <T>([path, query]: ApiKey) => api.get<T>(path, query);

/** GET through the one client. `path` null = do not fetch yet. Live data comes from realtime, not polling. */
export function useApi<T>(path: string | null, query?: QueryParams, opts?: SWRConfiguration<T>) {
  return useSWR<T, unknown, ApiKey | null>(path ? [path, query] : null, apiFetcher<T>, {
    revalidateOnFocus: false,
    ...opts,
  });
}

/** True when an SWR key belongs to the resource path (exact or one of its sub-paths). */
export const keyMatches = (prefix: string) => (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && (key[0] === prefix || key[0].startsWith(`${prefix}/`));
