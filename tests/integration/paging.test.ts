import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../functions/lib/http';
import { http } from '../../infra/manifest';
import { ADMIN, api, login, newCompany, type TestCompany } from './helpers';

/**
 * Lists page by cursor (attendance.md 2.5, management.md 9); clients may still send `pageNumber`
 * (the spec's lists take it). A number the server cannot honour is refused, never answered with
 * the first page as if it were the page asked for.
 */

/** Every GET route whose query schema takes `pageNumber`, read from the route table as the fuzz suite does. */
async function pagedRoutes(): Promise<[string, Route][]> {
  const out: [string, Route][] = [];
  for (const module of http) {
    const { handler } = (await import(`../../functions/http/${module.name}.ts`)) as {
      handler: { routes: Record<string, Route> };
    };
    for (const key of module.routes) {
      const query = handler.routes[key]?.options.query as { shape?: Record<string, unknown> } | undefined;
      if (key.startsWith('GET ') && query?.shape?.pageNumber) out.push([key, handler.routes[key]!]);
    }
  }
  return out;
}

/** Query fields a list requires besides paging, so only `pageNumber` decides the answer. */
const REQUIRED_QUERY: Record<string, string> = { 'GET /contact-list-items': 'contactListId=999999' };

describe('pageNumber on cursor-paged lists', () => {
  let co: TestCompany;
  let superToken: string;
  let routes: [string, Route][];

  beforeAll(async () => {
    co = await newCompany('paging');
    superToken = (await login(ADMIN.email, ADMIN.password)).token;
    routes = await pagedRoutes();
  });

  const urlOf = (key: string, query: string) => {
    const path = key.slice('GET '.length).replace(/\{\w+\}/g, '999999');
    return `${path}?${[REQUIRED_QUERY[key], query].filter(Boolean).join('&')}`;
  };

  it('every list the spec pages by number takes pageNumber', () => {
    expect(routes.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        'GET /tickets',
        'GET /messages/{id}',
        'GET /contacts',
        'GET /announcements',
        'GET /chats',
        'GET /chats/{id}/messages',
        'GET /tags',
        'GET /quick-messages',
        'GET /schedules',
        'GET /contact-list-items',
        'GET /files',
        'GET /queueIntegration',
        'GET /invoices/all',
        'GET /campaigns',
      ]),
    );
  });

  it('pageNumber above 1 without a cursor is 400 ERR_VALIDATION on pageNumber; pageNumber=1 is the first page', async () => {
    for (const [key, route] of routes) {
      const token = route.options.super ? superToken : co.adminToken;
      const refused = await api('GET', urlOf(key, 'pageNumber=2'), { token });
      expect([key, refused.status, refused.body.error]).toEqual([key, 400, 'ERR_VALIDATION']);
      expect(refused.body.details).toContainEqual({ path: ['pageNumber'], message: 'invalid' });

      // bodies are compared on the tags list below: platform-wide lists change while other files run
      const first = await api('GET', urlOf(key, 'pageNumber=1'), { token });
      const plain = await api('GET', urlOf(key, ''), { token });
      expect([key, first.status]).toEqual([key, plain.status]);
      expect([key, first.status]).not.toEqual([key, 400]);
    }
  });

  it('pageNumber alongside the cursor that reaches the page is honoured', async () => {
    for (const name of ['alpha', 'bravo', 'charlie'])
      await api('POST', '/tags', { token: co.adminToken, body: { name, color: '#000000' } });
    const first = await api('GET', '/tags?limit=1&pageNumber=1', { token: co.adminToken });
    expect(first.body.cursor).toBeTruthy();
    const cursor = encodeURIComponent(first.body.cursor);
    const second = await api('GET', `/tags?limit=1&pageNumber=2&cursor=${cursor}`, { token: co.adminToken });
    expect(second.status).toBe(200);
    expect(second.body).toEqual((await api('GET', `/tags?limit=1&cursor=${cursor}`, { token: co.adminToken })).body);
    expect(second.body.tags[0].id).not.toBe(first.body.tags[0].id);
  });
});
