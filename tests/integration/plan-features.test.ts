import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Route } from '../../functions/lib/http';
import { http, splitRouteKey, type RouteKey } from '../../infra/manifest';
import { PLAN_FEATURES, type PlanFeature } from '../../shared/plans';
import { ADMIN, api, login, newCompany, type TestCompany } from './helpers';
import { createWhatsapp } from './fixtures';

/**
 * Plan flags over the WHOLE route list of the manifest: every route of a gated module (or under a
 * gated path) is called by the admin of a company whose plan lacks that one flag (and has every other
 * one), and must answer 403 ERR_PLAN_FEATURE_DISABLED. The routes come from the manifest, so a route
 * added to a gated module without its `feature` fails here the moment it is added.
 */

interface Gate {
  /** manifest modules (`infra/manifest.ts` `http[].name`) whose every route needs the flag */
  modules: string[];
  /** paths (without `/api`) whose every route needs the flag, in any module */
  pathPrefixes: string[];
  /** how the route is called: a user session (default), or the external API's connection token */
  credential?: 'connectionToken';
}

const GATES: Record<PlanFeature, Gate> = {
  useCampaigns: { modules: ['campaigns', 'contact-lists'], pathPrefixes: ['/campaign', '/contact-list'] },
  useKanban: { modules: [], pathPrefixes: ['/ticket/kanban', '/tags/kanban'] },
  useSchedules: { modules: ['schedules'], pathPrefixes: ['/schedules'] },
  useInternalChat: { modules: ['chats'], pathPrefixes: ['/chats'] },
  useOpenAi: {
    modules: ['prompts', 'knowledge', 'knowledge-learn', 'copilot'],
    pathPrefixes: ['/prompt', '/knowledge', '/copilot'],
  },
  useIntegrations: { modules: ['queue-integrations'], pathPrefixes: ['/queueIntegration'] },
  useAutomation: { modules: ['automation-rules'], pathPrefixes: ['/automation-rules'] },
  useExternalApi: { modules: ['messages-api'], pathPrefixes: ['/messages/send'], credential: 'connectionToken' },
};

/** The flag each gated route of the manifest needs. */
const gated = new Map<RouteKey, PlanFeature>();
for (const module of http) {
  for (const route of module.routes) {
    const { path } = splitRouteKey(route);
    const flags = PLAN_FEATURES.filter(
      (f) => GATES[f].modules.includes(module.name) || GATES[f].pathPrefixes.some((p) => path.startsWith(p)),
    );
    if (flags.length > 1) throw new Error(`${route} falls under two plan flags: ${flags.join(', ')}`);
    if (flags[0]) gated.set(route, flags[0]);
  }
}
const gatedRoutes = [...gated];

/** Any id will do: the plan is checked before the path, the query and the body are read. */
const pathOf = (route: RouteKey) => splitRouteKey(route).path.replace(/\{\w+\}/g, '1');

/** Per flag: the admin (and a connection's API token) of a company whose plan lacks only that flag. */
const without = {} as Record<PlanFeature, { co: TestCompany; connectionToken: string }>;

beforeAll(async () => {
  const superToken = (await login(ADMIN.email, ADMIN.password)).token as string;
  await Promise.all(
    PLAN_FEATURES.map(async (feature) => {
      const flags = Object.fromEntries(PLAN_FEATURES.map((f) => [f, f !== feature]));
      const plan = await api('POST', '/plans', {
        token: superToken,
        body: {
          name: `No ${feature} ${randomUUID().slice(0, 8)}`,
          users: 5,
          connections: 5,
          queues: 5,
          value: 10,
          ...flags,
        },
      });
      expect(plan.status, JSON.stringify(plan.body)).toBe(201);
      const co = await newCompany(`pf-${feature}`);
      const connection = await createWhatsapp(co);
      const moved = await api('PUT', `/companies/${co.companyId}`, {
        token: superToken,
        body: { planId: plan.body.id },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      without[feature] = { co, connectionToken: connection.token };
    }),
  );
});

describe('plan flags over every route of the manifest', () => {
  it('every plan flag gates routes of the manifest, and every gated module exists there', () => {
    const modules = new Set(http.map((m) => m.name));
    for (const feature of PLAN_FEATURES) {
      for (const module of GATES[feature].modules) expect(modules, `${feature}: module ${module}`).toContain(module);
      expect(
        gatedRoutes.filter(([, f]) => f === feature).length,
        `${feature} gates no route of the manifest`,
      ).toBeGreaterThan(0);
    }
    expect(gated.get('POST /campaigns')).toBe('useCampaigns');
    expect(gated.get('GET /ticket/kanban')).toBe('useKanban');
  });

  it('every route a handler gates with a plan flag is in the table above, under the same flag', async () => {
    for (const module of http) {
      const { handler } = (await import(`../../functions/http/${module.name}.ts`)) as {
        handler: { routes: Record<string, Route> };
      };
      for (const route of module.routes) {
        const feature = handler.routes[route]?.options.feature;
        if (feature) expect(gated.get(route), `${route} declares ${feature}`).toBe(feature);
      }
    }
  });

  it.each(gatedRoutes)(
    '%s is refused to a company whose plan lacks %s (403 ERR_PLAN_FEATURE_DISABLED)',
    async (route, feature) => {
      const { co, connectionToken } = without[feature];
      const { method } = splitRouteKey(route);
      const res =
        GATES[feature].credential === 'connectionToken'
          ? await api(method, pathOf(route), {
              headers: { authorization: `Bearer ${connectionToken}` },
              body: { number: '5511999990000', body: 'Olá' },
            })
          : await api(method, pathOf(route), { token: co.adminToken });
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    },
  );
});
