import { UNDECRYPTABLE_ALARM_THRESHOLD } from '../../session-runner/src/health';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App, NestedStack, Stack, type PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppManifest } from '../../infra/aws/inbox-stack';
import { functionId } from '../../infra/aws/app-function';
import { HTTP_THROTTLE, WS_THROTTLE } from '../../infra/aws/api';
import { ACCESS_LOG_DAYS } from '../../infra/aws/data';
import { SEARCH_INSTANCE_TYPE, SEARCH_VOLUME_GB } from '../../infra/aws/search';
import { SEND_API_PATHS, SIGN_IN_PATHS } from '../../infra/aws/edge';
import {
  access,
  manifest,
  queueTimeouts,
  splitRouteKey,
  SESSION_RUNNER_CONSUMER,
  VISIBILITY_PER_TIMEOUT,
  type Access,
  type AccessGroup,
  type QueueDef,
  type TimerDef,
} from '../../infra/manifest';
import { createTableInput, GSI_NAMES, TTL_ATTRIBUTE } from '../../infra/table';
import { queueEnvName } from '../../functions/lib/queue';
import { ORIGIN_VERIFY_HEADER } from '../../functions/lib/origin';
import { buildApp } from './build-app';
import { acknowledgedOn } from '../../infra/aws/nag';

const ROOT = resolve(import.meta.dirname, '../..');

/** Synthesizes the stacks as `cdk synth` would (same feature flags, as app.ts composes them), but with bundling skipped. */
function synth(
  appManifest: AppManifest = manifest,
  extra: { mailFrom?: string; alarmEmail?: string; search?: boolean } = {},
) {
  const { app, edge, stack } = buildApp({ manifest: appManifest, ...extra });
  const template = Template.fromStack(stack);
  const json = template.toJSON() as { Resources: Record<string, Resource>; Outputs: Record<string, unknown> };
  const assembly = app.synth();
  return {
    app,
    stack,
    template,
    json,
    routes: routesStack(stack, json),
    edge: { stack: edge, json: Template.fromStack(edge).toJSON() as { Resources: Record<string, Resource> } },
    assembly,
  };
}

/**
 * The nested stack holding the HTTP routes and their integrations (infra/aws/api.ts), and
 * `fromParent()`, which reads a parameter it refers to (`{ Ref }`) as the app stack passes it in,
 * e.g. a function's ARN as `{ 'Fn::GetAtt': [<function>, 'Arn'] }`.
 */
function routesStack(stack: Stack, parent: { Resources: Record<string, Resource> }) {
  const nested = stack.node.findAll().filter(NestedStack.isNestedStack);
  expect(nested.map((n) => n.node.path)).toEqual(['Inbox/Api/Routes']);
  const json = Template.fromStack(nested[0]!).toJSON() as { Resources: Record<string, Resource> };
  const passed = parent.Resources[stack.getLogicalId(nested[0]!.nestedStackResource!)]!.Properties.Parameters;
  const fromParent = (value: any) => (value?.Ref in passed ? passed[value.Ref] : value);
  return { json, fromParent };
}

interface Resource {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
}

const resourcesOf = (json: { Resources: Record<string, Resource> }, type: string) =>
  Object.entries(json.Resources).filter(([, r]) => r.Type === type);

/** Logical id of the (single) Lambda function created for a handler module. */
function functionLogicalId(json: { Resources: Record<string, Resource> }, module: string) {
  const prefix = functionId(module);
  const ids = resourcesOf(json, 'AWS::Lambda::Function')
    .map(([id]) => id)
    .filter((id) => id.startsWith(prefix) && /^[0-9A-F]{8}$/.test(id.slice(prefix.length)));
  expect(ids, `one function for ${module}`).toHaveLength(1);
  return ids[0]!;
}

/** Logical id of the execution role of a function (by handler module). */
const roleOf = (json: { Resources: Record<string, Resource> }, module: string) =>
  json.Resources[functionLogicalId(json, module)]!.Properties.Role['Fn::GetAtt'][0] as string;

const actionsOf = (statements: any[]) => statements.flatMap((s) => [s.Action].flat() as string[]);

/** Statements of the IAM policies attached to a role (by logical id). */
const policyStatements = (json: { Resources: Record<string, Resource> }, role: string) =>
  resourcesOf(json, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);

// A variant of the manifest with one queue and timer of every kind, so the generator is checked even
// while the real manifest has none of some kind. Consumers reuse an existing handler module.
const sampleQueues: QueueDef[] = [
  { name: 'sample-fifo', fifo: true, consumer: 'jobs/seed', batchSize: 5, maxReceiveCount: 3 },
  { name: 'sample-standard', fifo: false, consumer: 'jobs/seed' },
  { name: 'sample-runner', fifo: true, consumer: SESSION_RUNNER_CONSUMER },
];
const sampleTimers: TimerDef[] = [{ name: 'sample-timer', handler: 'jobs/seed', everyMinutes: 5 }];
/** The options an operator turns on with context values (infra/aws/app.ts). */
const EVERY_OPTION = { search: true, mailFrom: 'no-reply@example.com', alarmEmail: 'ops@example.com' };
const extended: AppManifest = {
  ...manifest,
  queues: [...manifest.queues, ...sampleQueues],
  timers: [...manifest.timers, ...sampleTimers],
};

/**
 * cdk-nag's AwsSolutions pack over a synthesized app (the tree `cdk synth` validates). A finding is
 * either fixed in infra/aws/ or accepted there, next to its cause, with its reason (acceptFinding()
 * in infra/aws/nag.ts).
 */
function nagCheck(app: App) {
  const { violations } = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(app);
  return { app, violations };
}

/** One paragraph per finding: rule (and finding), where, and what cdk-nag says to do. */
const explain = (violations: PolicyViolation[]) =>
  violations
    .map(
      (v) =>
        `${v.ruleName} (${v.severity})\n${v.violatingResources.map((r) => `  at ${r.constructPath}`).join('\n')}\n  ${v.description}`,
    )
    .join('\n\n');

const bySeverity = (violations: PolicyViolation[], severity: string) =>
  violations.filter((v) => v.severity === severity);

describe('AWS stack generated from the manifest', () => {
  let real: ReturnType<typeof synth>;
  let sample: ReturnType<typeof synth>;
  /**
   * Every option an operator turns on with context values: `search=on`, mail and alarms. One
   * synthesis serves the search, mail, size and cdk-nag checks (each takes seconds of CPU).
   */
  let everything: ReturnType<typeof synth>;

  beforeAll(() => {
    real = synth();
    sample = synth(extended);
    everything = synth(manifest, EVERY_OPTION);
  }, 90_000);

  it('every manifest route exists as an HTTP API route `METHOD /api/path` on its module function', () => {
    const [httpApi] = resourcesOf(real.json, 'AWS::ApiGatewayV2::Api').find(
      ([, a]) => a.Properties.ProtocolType === 'HTTP',
    )!;
    const routes = resourcesOf(real.routes.json, 'AWS::ApiGatewayV2::Route');
    const integrations = Object.fromEntries(resourcesOf(real.routes.json, 'AWS::ApiGatewayV2::Integration'));
    const expected = manifest.http.flatMap((mod) => mod.routes.map((key) => ({ mod, key })));
    expect(routes).toHaveLength(expected.length);
    for (const { mod, key } of expected) {
      const { method, path } = splitRouteKey(key);
      const route = routes.find(([, r]) => r.Properties.RouteKey === `${method} /api${path}`);
      expect(route, `route ${key}`).toBeDefined();
      const integrationId = route![1].Properties.Target['Fn::Join'][1][1].Ref;
      expect(real.routes.fromParent(integrations[integrationId]!.Properties.IntegrationUri)['Fn::GetAtt'][0]).toBe(
        functionLogicalId(real.json, `http/${mod.name}`),
      );
      expect(real.routes.fromParent(route![1].Properties.ApiId)).toEqual({ Ref: httpApi });
    }
    // the app stack keeps only the WebSocket routes
    expect(
      resourcesOf(real.json, 'AWS::ApiGatewayV2::Route')
        .map(([, r]) => r.Properties.RouteKey as string)
        .sort(),
    ).toEqual(['$connect', '$default', '$disconnect']);
  });

  it('one Node 22 arm64 function per HTTP module, with the app environment, invoked through the API role', () => {
    const integrations = resourcesOf(real.routes.json, 'AWS::ApiGatewayV2::Integration')
      .filter(([, i]) => i.Properties.IntegrationType === 'AWS_PROXY' && i.Properties.CredentialsArn)
      .map(([, i]) => ({
        fn: real.routes.fromParent(i.Properties.IntegrationUri)['Fn::GetAtt'][0] as string,
        role: real.routes.fromParent(i.Properties.CredentialsArn)['Fn::GetAtt'][0] as string,
      }));
    expect(integrations).toHaveLength(manifest.http.length);
    const invokeRoles = new Set(integrations.map((i) => i.role));
    expect(invokeRoles.size).toBe(1);
    const [invokeRole] = [...invokeRoles] as [string];
    expect(real.json.Resources[invokeRole]!.Type).toBe('AWS::IAM::Role');
    const invokable = JSON.stringify(
      policyStatements(real.json, invokeRole).filter((st: any) => [st.Action].flat().includes('lambda:InvokeFunction')),
    );
    for (const mod of manifest.http) {
      const id = functionLogicalId(real.json, `http/${mod.name}`);
      const fn = real.json.Resources[id]!;
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.MemorySize).toBe(mod.memory ?? 512);
      const env = Object.keys(fn.Properties.Environment.Variables);
      const group = access[mod.access ?? 'tenant'] as (typeof access)[AccessGroup];
      expect(env).toEqual(
        expect.arrayContaining([
          'TABLE_NAME',
          'MEDIA_BUCKET',
          'APP_ORIGIN',
          'ORIGIN_VERIFY_SECRET_ARN',
          ...('jwt' in group ? ['JWT_SECRET_ARN'] : []),
          ...('realtime' in group ? ['WS_ENDPOINT'] : []),
          ...('sendsTo' in group ? group.sendsTo.map(queueEnvName) : []),
        ]),
      );
      expect(invokable).toContain(`"${id}"`);
      expect(integrations.some((i) => i.fn === id)).toBe(true);
    }
  });

  it('only the seed may read the admin password secret; functions of one access group share one role', () => {
    const adminSecret =
      real.json.Resources[functionLogicalId(real.json, 'Seed')]!.Properties.Environment.Variables
        .ADMIN_PASSWORD_SECRET_ARN.Ref;
    const tenantRoles = new Set(
      manifest.http.filter((m) => (m.access ?? 'tenant') === 'tenant').map((m) => roleOf(real.json, `http/${m.name}`)),
    );
    expect(tenantRoles.size).toBe(1);
    expect(new Set(Object.values(manifest.ws).map((m) => roleOf(real.json, m))).size).toBe(1);
    const appRoles = new Set(
      [...manifest.http.map((m) => `http/${m.name}`), ...Object.values(manifest.ws)].map((m) => roleOf(real.json, m)),
    );
    const seedRole = roleOf(real.json, 'Seed');
    expect(appRoles.has(seedRole)).toBe(false);
    const readsAdminSecret = (role: string) =>
      JSON.stringify(policyStatements(real.json, role)).includes(`"${adminSecret}"`);
    expect(readsAdminSecret(seedRole)).toBe(true);
    for (const role of appRoles) expect(readsAdminSecret(role)).toBe(false);
    const task = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]![1];
    expect(readsAdminSecret(task.Properties.TaskRoleArn['Fn::GetAtt'][0])).toBe(false);
  });

  it('the VAPID secret is read only by the push sender and the push subscription routes, and filled only by the seed', () => {
    const env = (fn: string) => real.json.Resources[functionLogicalId(real.json, fn)]!.Properties.Environment.Variables;
    const pushQueue = manifest.queues.find((q) => q.name === 'push')!;
    const vapid = env(pushQueue.consumer).VAPID_SECRET_ARN.Ref;
    expect(real.json.Resources[vapid]!.Type).toBe('AWS::SecretsManager::Secret');
    const readers = [pushQueue.consumer, 'http/push', 'Seed'];
    for (const fn of readers) expect(env(fn).VAPID_SECRET_ARN, fn).toEqual({ Ref: vapid });
    // roles of their own: neither the tenant modules nor the other queue consumers share them
    expect(roleOf(real.json, pushQueue.consumer)).not.toBe(roleOf(real.json, 'jobs/inbound'));
    expect(roleOf(real.json, 'http/push')).not.toBe(roleOf(real.json, 'http/tickets'));
    const naming = (action?: string) =>
      new Set(
        resourcesOf(real.json, 'AWS::IAM::Policy')
          .filter(([, p]) =>
            p.Properties.PolicyDocument.Statement.some(
              (st: any) =>
                JSON.stringify(st.Resource).includes(`"${vapid}"`) && (!action || actionsOf([st]).includes(action)),
            ),
          )
          .flatMap(([, p]) => p.Properties.Roles.map((r: any) => r.Ref as string)),
      );
    expect(naming('secretsmanager:GetSecretValue')).toEqual(new Set(readers.map((fn) => roleOf(real.json, fn))));
    expect(naming('secretsmanager:PutSecretValue')).toEqual(new Set([roleOf(real.json, 'Seed')]));
    expect(naming()).toEqual(new Set(readers.map((fn) => roleOf(real.json, fn))));
    // nobody else is even told where it is
    const told = resourcesOf(real.json, 'AWS::Lambda::Function')
      .filter(([, f]) => f.Properties.Environment?.Variables?.VAPID_SECRET_ARN)
      .map(([id]) => id);
    expect(told.sort()).toEqual(readers.map((fn) => functionLogicalId(real.json, fn)).sort());
    const task = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]![1];
    expect(JSON.stringify(policyStatements(real.json, task.Properties.TaskRoleArn['Fn::GetAtt'][0]))).not.toContain(
      `"${vapid}"`,
    );
  });

  it('no IAM policy in the stack may Scan the table (or use a DynamoDB wildcard)', () => {
    const actions = resourcesOf(real.json, 'AWS::IAM::Policy').flatMap(([, p]) =>
      actionsOf(p.Properties.PolicyDocument.Statement),
    );
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(true);
    expect(actions.filter((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*' || a === '*')).toEqual([]);
  });

  it('the session runner task role cannot read the JWT signing key and gets no JWT_SECRET_ARN', () => {
    const jwtSecret =
      real.json.Resources[functionLogicalId(real.json, 'http/auth')]!.Properties.Environment.Variables.JWT_SECRET_ARN
        .Ref;
    const task = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]![1];
    const statements = policyStatements(real.json, task.Properties.TaskRoleArn['Fn::GetAtt'][0]);
    expect(JSON.stringify(statements)).not.toContain(`"${jwtSecret}"`);
    expect(actionsOf(statements)).not.toContain('secretsmanager:GetSecretValue');
    const env = task.Properties.ContainerDefinitions[0].Environment.map((e: any) => e.Name);
    expect(env).not.toContain('JWT_SECRET_ARN');
    // what it does need: the table, the media, posting to sockets, emitting inbound events
    expect(actionsOf(statements)).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject', 'execute-api:ManageConnections', 'sqs:SendMessage']),
    );
  });

  it('the version function can read the table and nothing else: no writes, media, queues, sockets or secrets', () => {
    const statements = policyStatements(real.json, roleOf(real.json, 'http/version'));
    const actions = actionsOf(statements);
    expect(actions).toContain('dynamodb:GetItem');
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      expect(actions).not.toContain(write);
    const foreign = actions.filter(
      (a) =>
        !a.startsWith('dynamodb:') && a !== 'secretsmanager:GetSecretValue' && a !== 'secretsmanager:DescribeSecret',
    );
    expect(foreign).toEqual([]);
    // the one secret it reads is the origin-verify value, not the JWT key
    const env = real.json.Resources[functionLogicalId(real.json, 'http/version')]!.Properties.Environment.Variables;
    expect(env.JWT_SECRET_ARN).toBeUndefined();
    expect(JSON.stringify(statements)).toContain(`"${env.ORIGIN_VERIFY_SECRET_ARN.Ref}"`);
  });

  it('sign-in and signup (public group) touch no media and send to no queue; jobs never hold the JWT key', () => {
    const publicActions = actionsOf(policyStatements(real.json, roleOf(real.json, 'http/auth')));
    expect(publicActions.filter((a) => a.startsWith('s3:') || a.startsWith('sqs:'))).toEqual([]);
    expect(roleOf(real.json, 'http/companies')).toBe(roleOf(real.json, 'http/auth'));
    const jwtSecret =
      real.json.Resources[functionLogicalId(real.json, 'http/auth')]!.Properties.Environment.Variables.JWT_SECRET_ARN
        .Ref;
    for (const def of manifest.queues.filter((q) => q.consumer !== SESSION_RUNNER_CONSUMER))
      expect(JSON.stringify(policyStatements(real.json, roleOf(real.json, def.consumer)))).not.toContain(
        `"${jwtSecret}"`,
      );
  });

  it("the data key (companies' stored API keys) is read by the tenant modules and the queue consumers only, never with the JWT key in the consumers", () => {
    const env = (fn: string) => real.json.Resources[functionLogicalId(real.json, fn)]!.Properties.Environment.Variables;
    const dataKey = env('http/prompts').DATA_KEY_SECRET_ARN.Ref;
    const jwtKey = env('http/auth').JWT_SECRET_ARN.Ref;
    expect(dataKey).not.toBe(jwtKey);
    const inbound = manifest.queues.find((q) => q.name === 'inbound')!.consumer;
    expect(env(inbound).DATA_KEY_SECRET_ARN.Ref).toBe(dataKey);
    expect(JSON.stringify(policyStatements(real.json, roleOf(real.json, inbound)))).toContain(`"${dataKey}"`);
    // sign-in, the version function and the session runner never hold it
    for (const fn of ['http/auth', 'http/version']) {
      expect(env(fn).DATA_KEY_SECRET_ARN).toBeUndefined();
      expect(JSON.stringify(policyStatements(real.json, roleOf(real.json, fn)))).not.toContain(`"${dataKey}"`);
    }
    const task = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]![1];
    expect(JSON.stringify(policyStatements(real.json, task.Properties.TaskRoleArn['Fn::GetAtt'][0]))).not.toContain(
      `"${dataKey}"`,
    );
  });

  it('media access is limited to objects under the tenant prefixes (company*), never the whole bucket', () => {
    const onMedia = resourcesOf(real.json, 'AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((st: any) => JSON.stringify(st.Resource).includes('DataMedia'));
    const objectStatements = onMedia.filter((st: any) => actionsOf([st]).some((a) => a !== 's3:ListBucket'));
    expect(actionsOf(objectStatements)).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject']));
    for (const st of objectStatements) {
      for (const r of [st.Resource].flat()) expect(JSON.stringify(r)).toMatch(/\/company\*"\]\]\}$/);
    }
    expect(actionsOf(onMedia).filter((a) => a.includes('*') || a.startsWith('s3:PutBucket'))).toEqual([]);
  });

  it('a function gets the URL of, and may send to, exactly the queues its access group sends to', () => {
    const queueIds = new Map(
      resourcesOf(sample.json, 'AWS::SQS::Queue').map(([id, q]) => [q.Properties.QueueName as string, id]),
    );
    const idOf = (name: string) => {
      const def = extended.queues.find((q) => q.name === name)!;
      return queueIds.get(`Inbox-${def.name}${def.fifo ? '.fifo' : ''}`)!;
    };
    for (const [module, group] of [
      ['http/tickets', 'tenant'],
      ['http/auth', 'public'],
      ['jobs/inbound', 'jobs'],
    ] as const) {
      const env = sample.json.Resources[functionLogicalId(sample.json, module)]!.Properties.Environment.Variables;
      const sendsTo = (access[group] as Access).sendsTo ?? [];
      const sendable = policyStatements(sample.json, roleOf(sample.json, module))
        .filter((st: any) => actionsOf([st]).includes('sqs:SendMessage'))
        .flatMap((st: any) => [st.Resource].flat().map((r: any) => r['Fn::GetAtt']?.[0]));
      for (const def of extended.queues) {
        const expected = sendsTo.includes(def.name);
        expect(env[queueEnvName(def.name)], `${module} -> ${def.name}`).toEqual(
          expected ? { Ref: idOf(def.name) } : undefined,
        );
        expect(sendable.includes(idOf(def.name)), `${module} may send to ${def.name}`).toBe(expected);
      }
    }
    expect(queueEnvName('session-commands')).toBe('QUEUE_URL_SESSION_COMMANDS');
  });

  it('the fleet view counts every queue and its dead letters and may redrive those, and nothing else may', () => {
    const queueIds = new Map(
      resourcesOf(real.json, 'AWS::SQS::Queue').map(([id, q]) => [q.Properties.QueueName as string, id]),
    );
    const env = real.json.Resources[functionLogicalId(real.json, 'http/fleet')]!.Properties.Environment.Variables;
    const statements = policyStatements(real.json, roleOf(real.json, 'http/fleet'));
    const resourcesFor = (action: string) =>
      statements
        .filter((st: any) => actionsOf([st]).includes(action))
        .flatMap((st: any) => [st.Resource].flat().map((r: any) => r['Fn::GetAtt']?.[0]));
    for (const def of manifest.queues) {
      const suffix = def.fifo ? '.fifo' : '';
      const queue = queueIds.get(`Inbox-${def.name}${suffix}`)!;
      const deadLetters = queueIds.get(`Inbox-${def.name}-dlq${suffix}`)!;
      expect(env[queueEnvName(def.name)], def.name).toEqual({ Ref: queue });
      expect(env[`DLQ_URL_${def.name.toUpperCase().replace(/-/g, '_')}`], def.name).toEqual({ Ref: deadLetters });
      expect(resourcesFor('sqs:GetQueueAttributes'), def.name).toEqual(expect.arrayContaining([queue, deadLetters]));
      // SQS's redrive reads the dead letters and sends them back to the queue they came from
      expect(resourcesFor('sqs:StartMessageMoveTask'), def.name).toContain(deadLetters);
      expect(resourcesFor('sqs:ReceiveMessage'), def.name).toContain(deadLetters);
      expect(resourcesFor('sqs:SendMessage'), def.name).toContain(queue);
    }
    for (const module of ['http/tickets', 'http/whatsapp', 'jobs/inbound']) {
      const actions = actionsOf(policyStatements(real.json, roleOf(real.json, module)));
      expect(actions, module).not.toContain('sqs:StartMessageMoveTask');
    }
  });

  it('every manifest queue exists, FIFO where declared (no content dedup), with a DLQ and its consumer', () => {
    for (const { json, defs } of [
      { json: real.json, defs: manifest.queues },
      { json: sample.json, defs: extended.queues },
    ]) {
      const queues = Object.fromEntries(
        resourcesOf(json, 'AWS::SQS::Queue').map(([id, q]) => [q.Properties.QueueName, { id, ...q }]),
      );
      const mappings = resourcesOf(json, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
      for (const def of defs) {
        const suffix = def.fifo ? '.fifo' : '';
        const queue = queues[`Inbox-${def.name}${suffix}`];
        expect(queue, `queue ${def.name}`).toBeDefined();
        expect(Boolean(queue!.Properties.FifoQueue)).toBe(def.fifo);
        if (def.fifo) expect(queue!.Properties.ContentBasedDeduplication).toBe(false);
        const dlq = queues[`Inbox-${def.name}-dlq${suffix}`];
        expect(dlq, `dead-letter queue of ${def.name}`).toBeDefined();
        expect(queue!.Properties.RedrivePolicy).toEqual({
          deadLetterTargetArn: { 'Fn::GetAtt': [dlq!.id, 'Arn'] },
          maxReceiveCount: def.maxReceiveCount ?? 5,
        });
        const mapping = mappings.filter((m) => m.EventSourceArn['Fn::GetAtt'][0] === queue!.id);
        if (def.consumer === SESSION_RUNNER_CONSUMER) {
          expect(mapping, `${def.name} is polled by the session runner, not a Lambda`).toHaveLength(0);
          continue;
        }
        expect(mapping).toHaveLength(1);
        expect(mapping[0]!.FunctionName.Ref).toBe(functionLogicalId(json, def.consumer));
        expect(mapping[0]!.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
        expect(mapping[0]!.BatchSize).toBe(def.batchSize ?? (def.fifo ? 1 : 10));
      }
    }
  });

  it('the session runner task may consume the queues whose consumer is session-runner, and knows their URLs', () => {
    const runnerQueue = resourcesOf(sample.json, 'AWS::SQS::Queue').find(
      ([, q]) => q.Properties.QueueName === 'Inbox-sample-runner.fifo',
    )![0];
    const task = resourcesOf(sample.json, 'AWS::ECS::TaskDefinition')[0]![1];
    const taskRole = task.Properties.TaskRoleArn['Fn::GetAtt'][0];
    const statements = policyStatements(sample.json, taskRole);
    const consume = statements.find(
      (s: any) =>
        [s.Action].flat().includes('sqs:ReceiveMessage') &&
        [s.Resource].flat().some((r: any) => r['Fn::GetAtt']?.[0] === runnerQueue),
    );
    expect(consume).toBeDefined();
    const env = Object.fromEntries(
      task.Properties.ContainerDefinitions[0].Environment.map((e: any) => [e.Name, e.Value]),
    );
    for (const def of extended.queues.filter((q) => q.consumer === SESSION_RUNNER_CONSUMER))
      expect(env[queueEnvName(def.name)], def.name).toBeDefined();
  });

  it('every timer has an EventBridge rule at rate(everyMinutes) calling its handler', () => {
    for (const { json, defs } of [
      { json: real.json, defs: manifest.timers },
      { json: sample.json, defs: extended.timers },
    ]) {
      const rules = resourcesOf(json, 'AWS::Events::Rule').map(([, r]) => r.Properties);
      for (const def of defs) {
        const rule = rules.find((r) => r.Description === `timer ${def.name}`);
        expect(rule, `rule for ${def.name}`).toBeDefined();
        expect(rule!.ScheduleExpression).toBe(`rate(${def.everyMinutes} minute${def.everyMinutes === 1 ? '' : 's'})`);
        expect(rule!.Targets[0].Arn['Fn::GetAtt'][0]).toBe(functionLogicalId(json, def.handler));
      }
      expect(rules.filter((r) => r.Description?.startsWith('timer '))).toHaveLength(defs.length);
    }
  });

  it('the WebSocket API has $connect, $disconnect and $default on the manifest handlers and a `ws` stage', () => {
    const routes = resourcesOf(real.json, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(routes).toEqual(expect.arrayContaining(['$connect', '$disconnect', '$default']));
    for (const module of Object.values(manifest.ws)) functionLogicalId(real.json, module);
    real.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'ws', AutoDeploy: true });
  });

  it('WebSocket handlers may post to WebSocket connections (execute-api:ManageConnections)', () => {
    const fnRole =
      real.json.Resources[functionLogicalId(real.json, manifest.ws.default)]!.Properties.Role['Fn::GetAtt'][0];
    const statements = policyStatements(real.json, fnRole);
    expect(statements.some((s: any) => [s.Action].flat().includes('execute-api:ManageConnections'))).toBe(true);
  });

  it('buckets are not public and refuse plain HTTP', () => {
    const buckets = resourcesOf(real.json, 'AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(2);
    for (const [, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    const policies = resourcesOf(real.json, 'AWS::S3::BucketPolicy');
    for (const [id] of buckets) {
      const policy = policies.find(([, p]) => p.Properties.Bucket.Ref === id);
      expect(policy, `policy of ${id}`).toBeDefined();
      expect(policy![1].Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      );
    }
  });

  it('the media bucket accepts presigned PUT/GET from the app origin only', () => {
    const media = resourcesOf(real.json, 'AWS::S3::Bucket').find(([, b]) => b.Properties.CorsConfiguration)![1];
    const [rule] = media.Properties.CorsConfiguration.CorsRules;
    expect(rule.AllowedMethods).toEqual(expect.arrayContaining(['PUT', 'GET']));
    expect(JSON.stringify(rule.AllowedOrigins)).toMatch(
      /"https:\/\/",\{"Fn::GetAtt":\["WebDistribution[0-9A-F]+","DomainName"\]\}/,
    );
  });

  it('the table matches infra/table.ts: keys, GSIs and their projections, TTL `ttl`, PITR, on-demand, retained', () => {
    const expected = createTableInput('x');
    const [, table] = resourcesOf(real.json, 'AWS::DynamoDB::Table')[0]!;
    expect(resourcesOf(real.json, 'AWS::DynamoDB::Table')).toHaveLength(1);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    expect(table.Properties.StreamSpecification).toEqual({
      StreamViewType: expected.StreamSpecification.StreamViewType,
    });
    expect(table.Properties.KeySchema).toEqual(expected.KeySchema);
    expect(table.Properties.GlobalSecondaryIndexes.map((g: any) => g.IndexName)).toEqual([...GSI_NAMES]);
    expect(
      table.Properties.GlobalSecondaryIndexes.map(({ IndexName, KeySchema, Projection }: any) => ({
        IndexName,
        KeySchema,
        Projection,
      })),
    ).toEqual(expected.GlobalSecondaryIndexes);
    expect(
      new Set(table.Properties.AttributeDefinitions.map((a: any) => `${a.AttributeName}:${a.AttributeType}`)),
    ).toEqual(new Set(expected.AttributeDefinitions.map((a) => `${a.AttributeName}:${a.AttributeType}`)));
  });

  it('without `search=on` there is no search domain or stream consumer, and the API is told search is off', () => {
    expect(resourcesOf(real.json, 'AWS::OpenSearchService::Domain')).toEqual([]);
    expect(
      resourcesOf(real.json, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
        JSON.stringify(m).includes('StreamArn'),
      ),
    ).toEqual([]);
    const env = real.json.Resources[functionLogicalId(real.json, 'http/search')]!.Properties.Environment.Variables;
    expect(env.SEARCH).toBe('off');
    expect(env.SEARCH_ENDPOINT).toBeUndefined();
    expect(JSON.stringify(real.json)).not.toContain('es:ESHttp');
  });

  it('with `search=on`: the smallest OpenSearch domain, encrypted, HTTPS only, reached only by the search roles (signed)', () => {
    const domains = resourcesOf(everything.json, 'AWS::OpenSearchService::Domain');
    expect(domains).toHaveLength(1);
    const [, domain] = domains[0]!;
    expect(domain.Properties.ClusterConfig).toMatchObject({
      InstanceCount: 1,
      InstanceType: SEARCH_INSTANCE_TYPE,
      DedicatedMasterEnabled: false,
      ZoneAwarenessEnabled: false,
    });
    expect(domain.Properties.EBSOptions).toMatchObject({
      EBSEnabled: true,
      VolumeSize: SEARCH_VOLUME_GB,
      VolumeType: 'gp3',
    });
    expect(domain.Properties.EncryptionAtRestOptions).toEqual({ Enabled: true });
    expect(domain.Properties.NodeToNodeEncryptionOptions).toEqual({ Enabled: true });
    expect(domain.Properties.DomainEndpointOptions).toMatchObject({
      EnforceHTTPS: true,
      TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07',
    });
    const [statement, ...more] = domain.Properties.AccessPolicies.Statement;
    expect(more).toEqual([]);
    const principals = [statement.Principal.AWS]
      .flat()
      .map((p: any) => p['Fn::GetAtt'][0])
      .sort();
    expect(principals).toEqual(
      [roleOf(everything.json, 'http/search'), roleOf(everything.json, 'jobs/search-index')].sort(),
    );
    expect(JSON.stringify(statement.Resource)).toContain(`:domain/${domain.Properties.DomainName}/*`);
    expect(everything.json.Outputs.SearchEndpoint).toBeDefined();
  });

  it('with `search=on`: the table stream feeds the indexer (messages, notes and tickets only; failed batches halved, then kept)', () => {
    const def = manifest.streamConsumers.find((c) => c.name === 'search-index')!;
    const indexer = functionLogicalId(everything.json, def.handler);
    const mappings = resourcesOf(everything.json, 'AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => m.Properties.FunctionName.Ref === indexer,
    );
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    const [tableId] = resourcesOf(everything.json, 'AWS::DynamoDB::Table')[0]!;
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: def.batchSize,
      MaximumBatchingWindowInSeconds: def.batchingWindowSeconds,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
    });
    expect(mapping.Properties.DestinationConfig.OnFailure.Destination).toBeDefined();
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: any) => JSON.parse(f.Pattern));
    expect(patterns).toEqual(
      ['M#', 'N#', 'TICKET#'].map((prefix) => ({ dynamodb: { Keys: { sk: { S: [{ prefix }] } } } })),
    );
    // a batch failing for good raises an alarm on the alarm topic
    const failedQueue = mapping.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
    const alarms = resourcesOf(everything.json, 'AWS::CloudWatch::Alarm').filter(([, a]) =>
      JSON.stringify(a.Properties.Dimensions ?? []).includes(failedQueue),
    );
    expect(alarms).toHaveLength(1);
  });

  it('with `search=on`: least privilege on the domain: the indexer writes, the API only reads, nothing else reaches it', () => {
    const [domainId] = resourcesOf(everything.json, 'AWS::OpenSearchService::Domain')[0]!;
    const esActions = (role: string) =>
      actionsOf(policyStatements(everything.json, role)).filter((a) => a.startsWith('es:'));
    const indexerRole = roleOf(everything.json, 'jobs/search-index');
    const apiRole = roleOf(everything.json, 'http/search');
    expect(roleOf(everything.json, 'http/tickets')).toBe(apiRole);
    expect(esActions(indexerRole).sort()).toEqual(['es:ESHttpDelete', 'es:ESHttpGet', 'es:ESHttpPost', 'es:ESHttpPut']);
    expect(esActions(apiRole).sort()).toEqual(['es:ESHttpGet', 'es:ESHttpPost']);
    for (const s of policyStatements(everything.json, indexerRole).filter((st: any) =>
      [st.Action].flat().some((a: string) => a.startsWith('es:')),
    ))
      expect(s.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [domainId, 'Arn'] }, '/*']] });
    // the indexer reads the table (the tickets of its documents) and writes nothing there
    const tableActions = actionsOf(policyStatements(everything.json, indexerRole)).filter((a) =>
      a.startsWith('dynamodb:'),
    );
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      expect(tableActions).not.toContain(write);
    const others = resourcesOf(everything.json, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((id) => id !== indexerRole && id !== apiRole);
    for (const role of others) expect(esActions(role), role).toEqual([]);
    const env = (fn: string) =>
      everything.json.Resources[functionLogicalId(everything.json, fn)]!.Properties.Environment.Variables;
    for (const fn of ['http/search', 'http/tickets', 'jobs/search-index']) {
      expect(env(fn).SEARCH_ENDPOINT).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [domainId, 'DomainEndpoint'] }]],
      });
      expect(env(fn).SEARCH).toBeUndefined();
    }
  });

  it('CloudFront: SPA from a private bucket via OAC, /api/* and /ws uncached to the gateways, API errors untouched', () => {
    const [, dist] = resourcesOf(real.json, 'AWS::CloudFront::Distribution')[0]!;
    const config = dist.Properties.DistributionConfig;
    // Distribution-wide error responses would turn the API's 403/404 into index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    expect(config.Origins.find((o: any) => o.S3OriginConfig)?.OriginAccessControlId).toBeDefined();
    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    for (const path of ['/api/*', '/ws']) {
      expect(behaviors[path], path).toBeDefined();
      expect(behaviors[path].CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
      expect(behaviors[path].OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    }
    expect(behaviors['/api/*'].AllowedMethods).toEqual(expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE']));
  });

  it('the SPA rewrite sends app routes to index.html and leaves files alone', () => {
    const [, fn] = resourcesOf(real.json, 'AWS::CloudFront::Function')[0]!;
    const handler = new Function(`${fn.Properties.FunctionCode}; return handler;`)() as (e: any) => { uri: string };
    expect(handler({ request: { uri: '/tickets/12' } }).uri).toBe('/index.html');
    expect(handler({ request: { uri: '/' } }).uri).toBe('/index.html');
    expect(handler({ request: { uri: '/assets/index-abc.js' } }).uri).toBe('/assets/index-abc.js');
    expect(handler({ request: { uri: '/config.json' } }).uri).toBe('/config.json');
  });

  it('config.json is written at deploy time with the distribution domain', () => {
    const deployments = resourcesOf(real.json, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    const withConfig = deployments.find((d) => JSON.stringify(d.SourceMarkers ?? []).includes('WebDistribution'));
    expect(withConfig).toBeDefined();
    expect(withConfig!.DistributionPaths).toEqual(['/*']);
  });

  it('the session runner runs on Fargate arm64 from session-runner/Dockerfile, built at deploy time (no Docker at synth)', () => {
    const [, task] = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]!;
    expect(task.Properties.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
    const env = Object.fromEntries(
      task.Properties.ContainerDefinitions[0].Environment.map((e: any) => [e.Name, e.Value]),
    );
    expect(env.WHATSAPP_PROVIDER).toBe('baileys');
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'MEDIA_BUCKET', 'WS_ENDPOINT', 'APP_ORIGIN']),
    );
    real.template.hasResourceProperties('AWS::ECS::Service', {
      LaunchType: 'FARGATE',
      DesiredCount: 2,
      // a deploy starts new runners before stopping old ones: sessions move by handover, none is left alone
      DeploymentConfiguration: Match.objectLike({ MinimumHealthyPercent: 100, MaximumPercent: 200 }),
    });
    // the runner drains on SIGTERM within its stop timeout; peers reach its API to forward commands
    const runner = task.Properties.ContainerDefinitions[0];
    expect(runner.StopTimeout).toBe(120);
    expect(Number(env.STOP_TIMEOUT_SECONDS)).toBeLessThan(120);
    expect(env.RUNNER_API_HOST).toBe('0.0.0.0');
    expect(runner.PortMappings).toEqual([expect.objectContaining({ ContainerPort: Number(env.RUNNER_API_PORT) })]);
    real.template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      IpProtocol: 'tcp',
      FromPort: Number(env.RUNNER_API_PORT),
      ToPort: Number(env.RUNNER_API_PORT),
    });
    real.template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      MinCapacity: 2,
      MaxCapacity: 10,
      ScalableDimension: 'ecs:service:DesiredCount',
    });
    const stackArtifact = real.assembly.getStackByName('Inbox');
    const assets = JSON.parse(
      readFileSync(resolve(real.assembly.directory, `${stackArtifact.stackName}.assets.json`), 'utf8'),
    );
    const images = Object.values(assets.dockerImages ?? {}) as { source: { dockerFile: string; platform: string } }[];
    expect(images).toHaveLength(1);
    expect(images[0]!.source).toMatchObject({ dockerFile: 'session-runner/Dockerfile', platform: 'linux/arm64' });
  });

  it('no plaintext secret in the template: secrets are generated, only their ARNs are passed', () => {
    const secrets = resourcesOf(real.json, 'AWS::SecretsManager::Secret');
    // JWT key, data key, admin password, origin-verify value, VAPID keys (a placeholder until the seed)
    expect(secrets).toHaveLength(5);
    for (const [, secret] of secrets) {
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.Properties.GenerateSecretString).toBeDefined();
    }
    const envNames = [
      ...resourcesOf(real.json, 'AWS::Lambda::Function').flatMap(([, f]) =>
        Object.keys(f.Properties.Environment?.Variables ?? {}),
      ),
      ...resourcesOf(real.json, 'AWS::ECS::TaskDefinition').flatMap(([, t]) =>
        t.Properties.ContainerDefinitions.flatMap((c: any) => (c.Environment ?? []).map((e: any) => e.Name)),
      ),
    ];
    expect(envNames).toContain('JWT_SECRET_ARN');
    expect(envNames).toContain('DATA_KEY_SECRET_ARN');
    expect(envNames).toContain('ADMIN_PASSWORD_SECRET_ARN');
    expect(envNames).not.toContain('JWT_SECRET');
    expect(envNames).not.toContain('ADMIN_PASSWORD');
    // The local runtime's default password must never reach AWS.
    expect(JSON.stringify(real.json)).not.toContain('admin123');
  });

  it('the seed runs after deployment with the admin e-mail and the generated password secret; outputs name both', () => {
    const seedId = functionLogicalId(real.json, 'Seed');
    const seed = real.json.Resources[seedId]!.Properties.Environment.Variables;
    expect(seed.ADMIN_EMAIL).toBe('admin@example.com');
    const adminSecret = seed.ADMIN_PASSWORD_SECRET_ARN.Ref;
    expect(real.json.Resources[adminSecret]!.Type).toBe('AWS::SecretsManager::Secret');
    real.template.resourceCountIs('Custom::Trigger', 1);
    expect(Object.keys(real.json.Outputs)).toEqual(expect.arrayContaining(['Url', 'AdminPasswordSecretName']));
    expect(JSON.stringify(real.json.Outputs.AdminPasswordSecretName)).toContain(adminSecret);
  });

  it('these tests never run esbuild: function code assets point at the unbundled project root', () => {
    const assets = JSON.parse(readFileSync(resolve(real.assembly.directory, 'Inbox.assets.json'), 'utf8'));
    const code = Object.values(
      assets.files as Record<string, { displayName: string; source: { path: string } }>,
    ).filter((a) => /^(Http|Ws|Seed)[A-Za-z]*\/Code$/.test(a.displayName));
    expect(code.length).toBe(manifest.http.length + Object.keys(manifest.ws).length + 1);
    for (const asset of code) expect(resolve(real.assembly.directory, asset.source.path)).toBe(ROOT);
  });

  it('both API stages are throttled (rate and burst): HTTP $default and the WebSocket stage', () => {
    const stages = resourcesOf(real.json, 'AWS::ApiGatewayV2::Stage').map(([, st]) => st.Properties);
    const http = stages.find((st) => st.StageName === '$default');
    const ws = stages.find((st) => st.StageName === 'ws');
    expect(http?.AutoDeploy).toBe(true);
    expect(http?.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: HTTP_THROTTLE.rateLimit,
      ThrottlingBurstLimit: HTTP_THROTTLE.burstLimit,
    });
    expect(ws?.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: WS_THROTTLE.rateLimit,
      ThrottlingBurstLimit: WS_THROTTLE.burstLimit,
    });
    expect(stages).toHaveLength(2);
  });

  it('the HTTP API logs every request as JSON with the route template, never the raw path (e-mails sit in /forgetpassword/{email})', () => {
    const stage = resourcesOf(real.json, 'AWS::ApiGatewayV2::Stage').find(
      ([, st]) => st.Properties.StageName === '$default',
    )!;
    const { DestinationArn, Format } = stage[1].Properties.AccessLogSettings;
    const logGroup = real.json.Resources[DestinationArn['Fn::GetAtt'][0]]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
    const fields = JSON.parse(Format);
    expect(fields).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
    });
    expect(Format).not.toMatch(/\$context\.(path|resourcePath)\b/);
  });

  it('the buckets, the distribution and the VPC write access logs to one private, retained bucket that expires them', () => {
    const buckets = resourcesOf(real.json, 'AWS::S3::Bucket');
    const target = (id: string) => ({ 'Fn::GetAtt': [id, 'RegionalDomainName'] });
    const logBucket = buckets.find(
      ([id]) =>
        JSON.stringify(
          resourcesOf(real.json, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig.Logging.Bucket,
        ) === JSON.stringify(target(id)),
    )!;
    expect(logBucket, 'the distribution logs to a bucket of the stack').toBeDefined();
    const [logId, logs] = logBucket;
    expect(logs.DeletionPolicy).toBe('Retain');
    expect(logs.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: ACCESS_LOG_DAYS, Status: 'Enabled' }),
    );
    for (const [id, bucket] of buckets.filter(([id]) => id !== logId))
      expect(bucket.Properties.LoggingConfiguration?.DestinationBucketName, id).toEqual({ Ref: logId });
    const [, flowLog] = resourcesOf(real.json, 'AWS::EC2::FlowLog')[0]!;
    expect(flowLog.Properties).toMatchObject({ LogDestinationType: 's3', TrafficType: 'ALL' });
    expect(JSON.stringify(flowLog.Properties.LogDestination)).toContain(`"${logId}"`);
  });

  it('every CloudFront behaviour sends HSTS, a CSP the SPA satisfies, nosniff, a strict referrer and DENY framing', () => {
    const [policyId, policy] = resourcesOf(real.json, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const headers = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31536000, Override: true });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.ReferrerPolicy.ReferrerPolicy).toBe('strict-origin-when-cross-origin');
    const raw = headers.ContentSecurityPolicy.ContentSecurityPolicy;
    // `Fn::Join` around the region token: read it as deployed in eu-west-1
    const csp: string = raw['Fn::Join']
      ? raw['Fn::Join'][1].map((part: unknown) => (typeof part === 'string' ? part : 'eu-west-1')).join('')
      : raw;
    const directive = (name: string) => csp.match(new RegExp(`(?:^|; )${name} ([^;]*)`))?.[1] ?? '';
    expect(directive('script-src')).toBe("'self'");
    expect(directive('style-src')).toBe("'self' 'unsafe-inline'"); // emotion injects <style> at runtime
    expect(directive('frame-ancestors')).toBe("'none'");
    expect(directive('connect-src')).toContain("'self'");
    for (const src of ["'self'", 'data:', 'blob:', 'https://*.whatsapp.net', 'https://*.s3.eu-west-1.amazonaws.com'])
      expect(directive('img-src').split(' ')).toContain(src);
    // presigned uploads go straight to the media bucket
    expect(directive('connect-src').split(' ')).toContain('https://*.s3.eu-west-1.amazonaws.com');
    expect(directive('media-src')).toContain('https://*.whatsapp.net');
    // the built SPA has no inline script the CSP would block
    const index = readFileSync(resolve(ROOT, 'web/index.html'), 'utf8');
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const config = resourcesOf(real.json, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors])
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });

  it('the WAF (CLOUDFRONT scope, its own us-east-1 stack) rate-limits sign-in, reset, signup and the send API', () => {
    expect(real.edge.stack.region).toBe('us-east-1');
    const [, acl] = resourcesOf(real.edge.json, 'AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties.Rules as any[];
    const rateRules = rules.filter((r) => r.Statement.RateBasedStatement);
    const limited = rateRules.flatMap((r) => {
      const scope = r.Statement.RateBasedStatement.ScopeDownStatement;
      expect(r.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
      const matches = scope.OrStatement ? scope.OrStatement.Statements : [scope];
      return matches.map((m: any) => m.ByteMatchStatement.SearchString as string);
    });
    for (const path of [
      '/api/auth/',
      '/api/forgetpassword/',
      '/api/resetpasswords',
      '/api/companies/cadastro',
      '/api/messages/send',
    ])
      expect(limited).toContain(path);
    expect([...SIGN_IN_PATHS, ...SEND_API_PATHS]).toHaveLength(limited.length);
    expect(rules.some((r) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet')).toBe(
      true,
    );
    // the app stack attaches it, reading its ARN from us-east-1 at deployment
    const config = resourcesOf(real.json, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(JSON.stringify(config.WebACLId)).toContain('Parameter.Value');
    expect(real.assembly.getStackByName('Inbox').dependencies.map((d) => d.id)).toContain('Inbox-Edge');
  });

  it('CloudFront proves itself to both gateways with a secret header (a dynamic reference), and the API checks it', () => {
    const [, dist] = resourcesOf(real.json, 'AWS::CloudFront::Distribution')[0]!;
    const gateways = dist.Properties.DistributionConfig.Origins.filter((o: any) => o.CustomOriginConfig);
    expect(gateways).toHaveLength(2);
    const secrets = new Set<string>();
    for (const origin of gateways) {
      const header = origin.OriginCustomHeaders.find((h: any) => h.HeaderName === ORIGIN_VERIFY_HEADER);
      const value = JSON.stringify(header.HeaderValue);
      expect(value).toContain('{{resolve:secretsmanager:');
      secrets.add(header.HeaderValue['Fn::Join'][1][1].Ref);
    }
    expect(secrets.size).toBe(1);
    const [secret] = [...secrets];
    expect(real.json.Resources[secret!]!.Properties.GenerateSecretString).toBeDefined();
    for (const module of [...manifest.http.map((m) => `http/${m.name}`), manifest.ws.connect]) {
      const env = real.json.Resources[functionLogicalId(real.json, module)]!.Properties.Environment.Variables;
      expect(env.ORIGIN_VERIFY_SECRET_ARN, module).toEqual({ Ref: secret });
      expect(JSON.stringify(policyStatements(real.json, roleOf(real.json, module)))).toContain(`"${secret}"`);
    }
  });

  it('every dead-letter queue has an alarm (visible messages > 0) that notifies the alarm topic', () => {
    for (const json of [real.json, sample.json]) {
      const dlqs = resourcesOf(json, 'AWS::SQS::Queue').filter(([, q]) =>
        /-dlq(\.fifo)?$/.test(q.Properties.QueueName),
      );
      const alarms = resourcesOf(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
      const [topic] = resourcesOf(json, 'AWS::SNS::Topic').map(([id]) => id);
      expect(dlqs.length).toBeGreaterThan(0);
      for (const [id] of dlqs) {
        const alarm = alarms.find((a) => a.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0] === id);
        expect(alarm, `alarm on ${id}`).toBeDefined();
        expect(alarm).toMatchObject({
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Namespace: 'AWS/SQS',
          Threshold: 0,
          ComparisonOperator: 'GreaterThanThreshold',
          AlarmActions: [{ Ref: topic }],
        });
      }
    }
  });

  it('a WhatsApp session down or silent for 15 minutes on any runner (or no runner writing health metrics) raises an alarm on the alarm topic', () => {
    const alarms = resourcesOf(real.json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [topic] = resourcesOf(real.json, 'AWS::SNS::Topic').map(([id]) => id);
    // each runner counts the sessions unhealthy for 15 minutes itself: the worst runner decides
    const alarm = alarms.find((a) => a.MetricName === 'SessionsUnhealthyLong');
    expect(alarm).toMatchObject({
      Namespace: 'Inbox/Sessions',
      Dimensions: [{ Name: 'Service', Value: 'session-runner' }],
      Statistic: 'Maximum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [{ Ref: topic }],
    });
    // the runner writes the metric as Embedded Metric Format lines: it must be told to
    const [task] = resourcesOf(real.json, 'AWS::ECS::TaskDefinition').map(([, t]) => t.Properties);
    expect(task.ContainerDefinitions[0].Environment).toContainEqual({ Name: 'HEALTH_METRICS', Value: 'emf' });
  });

  it('R4: a spike of messages that could not be decrypted, over every runner, raises an alarm on the alarm topic', () => {
    const alarms = resourcesOf(real.json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [topic] = resourcesOf(real.json, 'AWS::SNS::Topic').map(([id]) => id);
    expect(alarms.find((a) => a.MetricName === 'Undecryptable')).toMatchObject({
      Namespace: 'Inbox/Sessions',
      Dimensions: [{ Name: 'Service', Value: 'session-runner' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: UNDECRYPTABLE_ALARM_THRESHOLD,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: topic }],
    });
  });

  it('N6: a session WhatsApp stopped for good (banned, version refused, logged out) raises an alarm on the alarm topic', () => {
    const alarms = resourcesOf(real.json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [topic] = resourcesOf(real.json, 'AWS::SNS::Topic').map(([id]) => id);
    expect(alarms.find((a) => a.MetricName === 'SessionsStopped')).toMatchObject({
      Namespace: 'Inbox/Sessions',
      Dimensions: [{ Name: 'Service', Value: 'session-runner' }],
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topic }],
    });
  });

  it('the runner service scales on the sessions each task holds (a published metric), with memory as a safety net', () => {
    const policies = resourcesOf(real.json, 'AWS::ApplicationAutoScaling::ScalingPolicy').map(([, p]) => p.Properties);
    const sessions = policies.find(
      (p) => p.TargetTrackingScalingPolicyConfiguration?.CustomizedMetricSpecification?.MetricName === 'SessionsHeld',
    );
    expect(sessions?.TargetTrackingScalingPolicyConfiguration).toMatchObject({
      TargetValue: 50,
      CustomizedMetricSpecification: {
        Namespace: 'Inbox/Sessions',
        Statistic: 'Average',
        Dimensions: [{ Name: 'Service', Value: 'session-runner' }],
      },
    });
    expect(
      policies.some(
        (p) =>
          p.TargetTrackingScalingPolicyConfiguration?.PredefinedMetricSpecification?.PredefinedMetricType ===
          'ECSServiceAverageMemoryUtilization',
      ),
    ).toBe(true);
    const [target] = resourcesOf(real.json, 'AWS::ApplicationAutoScaling::ScalableTarget').map(([, t]) => t.Properties);
    expect(target).toMatchObject({ MinCapacity: 2, MaxCapacity: 10 });
  });

  it('fewer session runners running than the minimum for 10 minutes raises an alarm on the alarm topic', () => {
    const alarms = resourcesOf(real.json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [topic] = resourcesOf(real.json, 'AWS::SNS::Topic').map(([id]) => id);
    const [service] = resourcesOf(real.json, 'AWS::ECS::Service').map(([, s]) => s.Properties);
    const alarm = alarms.find((a) => a.MetricName === 'RunningTaskCount');
    expect(alarm).toMatchObject({
      Namespace: 'ECS/ContainerInsights',
      Statistic: 'Minimum',
      Period: 60,
      EvaluationPeriods: 10,
      Threshold: service.DesiredCount,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [{ Ref: topic }],
    });
    expect(alarm?.Dimensions.map((d: any) => d.Name).sort()).toEqual(['ClusterName', 'ServiceName']);
  });

  it('session runner memory above 85% for 10 minutes raises an alarm on the alarm topic', () => {
    const alarms = resourcesOf(real.json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [topic] = resourcesOf(real.json, 'AWS::SNS::Topic').map(([id]) => id);
    const alarm = alarms.find((a) => a.MetricName === 'MemoryUtilization' && a.Namespace === 'AWS/ECS');
    expect(alarm).toMatchObject({
      Statistic: 'Average',
      Period: 300,
      EvaluationPeriods: 2,
      Threshold: 85,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: topic }],
    });
  });

  it('every Lambda-consumed queue stays invisible at least 6x its consumer timeout; a shorter one is refused', () => {
    for (const { json, defs } of [
      { json: real.json, defs: manifest.queues },
      { json: sample.json, defs: extended.queues },
    ]) {
      const queues = Object.fromEntries(
        resourcesOf(json, 'AWS::SQS::Queue').map(([, q]) => [q.Properties.QueueName, q.Properties]),
      );
      for (const def of defs.filter((d) => d.consumer !== SESSION_RUNNER_CONSUMER)) {
        const queue = queues[`Inbox-${def.name}${def.fifo ? '.fifo' : ''}`];
        const timeout = json.Resources[functionLogicalId(json, def.consumer)]!.Properties.Timeout;
        expect(queue.VisibilityTimeout, def.name).toBeGreaterThanOrEqual(VISIBILITY_PER_TIMEOUT * timeout);
        expect(queue.VisibilityTimeout).toBe(queueTimeouts(def).visibilityTimeoutSeconds);
      }
    }
    expect(() =>
      queueTimeouts({ name: 'x', fifo: false, consumer: 'jobs/x', timeoutSeconds: 60, visibilityTimeoutSeconds: 60 }),
    ).toThrow(/under 360s/);
  });

  it('mail: only the sign-in/signup group may send through SES, from the `mailFrom` identity; without it nobody may', () => {
    const sesActions = (json: typeof real.json) =>
      resourcesOf(json, 'AWS::IAM::Policy').flatMap(([, p]) =>
        p.Properties.PolicyDocument.Statement.filter((st: any) => actionsOf([st]).some((a) => a.startsWith('ses:'))),
      );
    expect(sesActions(real.json)).toEqual([]);
    const withMail = everything;
    const statements = sesActions(withMail.json);
    expect(actionsOf(statements)).toEqual(expect.arrayContaining(['ses:SendEmail', 'ses:SendRawEmail']));
    expect(JSON.stringify(statements)).toContain(':identity/no-reply@example.com');
    const sesRoles = resourcesOf(withMail.json, 'AWS::IAM::Policy')
      .filter(([, p]) =>
        p.Properties.PolicyDocument.Statement.some((st: any) => actionsOf([st]).includes('ses:SendEmail')),
      )
      .flatMap(([, p]) => p.Properties.Roles.map((r: any) => r.Ref));
    expect(sesRoles).toEqual([roleOf(withMail.json, 'http/auth')]);
    for (const module of ['http/auth', 'http/companies'])
      expect(
        withMail.json.Resources[functionLogicalId(withMail.json, module)]!.Properties.Environment.Variables.MAIL_FROM,
      ).toBe('no-reply@example.com');
    expect(
      withMail.json.Resources[functionLogicalId(withMail.json, 'http/tickets')]!.Properties.Environment.Variables
        .MAIL_FROM,
    ).toBeUndefined();
  });

  describe("with every option on, each template stays well under CloudFormation's limits (500 resources, 200 parameters)", () => {
    let counts: { template: string; resources: number; parameters: number }[];

    beforeAll(() => {
      const { assembly, stack } = everything;
      // every template file, so a stack or nested stack added later is counted without naming it here
      counts = readdirSync(assembly.directory)
        .filter((file) => file.endsWith('.template.json'))
        .map((file) => {
          const json = JSON.parse(readFileSync(resolve(assembly.directory, file), 'utf8'));
          return {
            template: file,
            resources: Object.keys(json.Resources ?? {}).length,
            parameters: Object.keys(json.Parameters ?? {}).length,
          };
        });
      console.log(
        `infra, every option on: ${counts.map((c) => `${c.template} ${c.resources} resources, ${c.parameters} parameters`).join('; ')}`,
      );
      const nested = stack.node.findAll().filter(NestedStack.isNestedStack);
      expect(counts).toHaveLength(assembly.stacks.length + nested.length);
    });

    it('no template holds more than 400 resources or 150 parameters', () => {
      for (const { template, resources, parameters } of counts) {
        expect(resources, template).toBeLessThanOrEqual(400);
        // the nested routes stack takes one parameter per HTTP module
        expect(parameters, template).toBeLessThanOrEqual(150);
      }
    });

    it('no template holds more than 300 resources, so the next features fit (past it, split another nested stack off)', () => {
      for (const { template, resources } of counts) expect(resources, template).toBeLessThanOrEqual(300);
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    let plain: { app: App; violations: PolicyViolation[] };
    let configured: { app: App; violations: PolicyViolation[] };

    beforeAll(() => {
      plain = nagCheck(real.app);
      configured = nagCheck(everything.app);
    }, 120_000);

    it('no error is left: every AwsSolutions finding of severity error is fixed or accepted with a reason', () => {
      for (const { violations } of [plain, configured]) {
        const errors = bySeverity(violations, 'error');
        expect(
          errors.map((v) => v.ruleName),
          `unaccepted cdk-nag errors:\n\n${explain(errors)}`,
        ).toEqual([]);
      }
    });

    it('every warning was reviewed: fixed or accepted with a reason', () => {
      for (const { violations } of [plain, configured]) {
        const warnings = bySeverity(violations, 'warning');
        expect(
          warnings.map((v) => v.ruleName),
          `unreviewed cdk-nag warnings:\n\n${explain(warnings)}`,
        ).toEqual([]);
      }
    });

    it('every acceptance names one AwsSolutions rule or finding, on a resource (not a whole stack), with a specific reason', () => {
      // (CDK acknowledges rules of its own CloudFormation validation on stacks)
      const accepted = plain.app.node
        .findAll()
        .flatMap((scope) => acknowledgedOn(scope).map((entry) => ({ ...entry, path: scope.node.path, scope })))
        .filter(({ id }) => id.startsWith('AwsSolutions-'));
      expect(accepted.length).toBeGreaterThan(0);
      for (const { id, reason, path, scope } of accepted) {
        expect(id, path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
        expect(reason.trim().length, `reason of ${id} at ${path}: "${reason}"`).toBeGreaterThanOrEqual(20);
        expect(Stack.isStack(scope) || App.isApp(scope), `${id} accepted for all of ${path}`).toBe(false);
      }
      // an IAM wildcard is accepted finding by finding, never the whole rule
      expect(accepted.filter((a) => a.id === 'AwsSolutions-IAM5')).toEqual([]);
    });
  });
});
