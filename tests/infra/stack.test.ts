import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { InboxStack, type AppManifest } from '../../infra/aws/inbox-stack';
import { functionId } from '../../infra/aws/app-function';
import { manifest, splitRouteKey, SESSION_RUNNER_CONSUMER, type QueueDef, type TimerDef } from '../../infra/manifest';
import { createTableInput, GSI_NAMES, TTL_ATTRIBUTE } from '../../infra/table';
import { queueEnvName } from '../../functions/lib/queue';

const ROOT = resolve(import.meta.dirname, '../..');
const cdkJson = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8'));

/** Synthesizes the stack as `cdk synth` would (same feature flags), but with bundling skipped. */
function synth(appManifest: AppManifest = manifest) {
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new InboxStack(app, 'Inbox', { adminEmail: 'admin@example.com', manifest: appManifest });
  const template = Template.fromStack(stack);
  const assembly = app.synth();
  return {
    template,
    json: template.toJSON() as { Resources: Record<string, Resource>; Outputs: Record<string, unknown> },
    assembly,
  };
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
const extended: AppManifest = {
  ...manifest,
  queues: [...manifest.queues, ...sampleQueues],
  timers: [...manifest.timers, ...sampleTimers],
};

describe('AWS stack generated from the manifest', () => {
  let real: ReturnType<typeof synth>;
  let sample: ReturnType<typeof synth>;

  beforeAll(() => {
    real = synth();
    sample = synth(extended);
  }, 60_000);

  it('every manifest route exists as an HTTP API route `METHOD /api/path` on its module function', () => {
    const routes = resourcesOf(real.json, 'AWS::ApiGatewayV2::Route').filter(
      ([, r]) => !r.Properties.RouteKey.startsWith('$'),
    );
    const integrations = Object.fromEntries(resourcesOf(real.json, 'AWS::ApiGatewayV2::Integration'));
    const expected = manifest.http.flatMap((mod) => mod.routes.map((key) => ({ mod, key })));
    expect(routes).toHaveLength(expected.length);
    for (const { mod, key } of expected) {
      const { method, path } = splitRouteKey(key);
      const route = routes.find(([, r]) => r.Properties.RouteKey === `${method} /api${path}`);
      expect(route, `route ${key}`).toBeDefined();
      const integrationId = route![1].Properties.Target['Fn::Join'][1][1].Ref;
      expect(integrations[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0]).toBe(
        functionLogicalId(real.json, `http/${mod.name}`),
      );
    }
  });

  it('one Node 22 arm64 function per HTTP module, with the app environment, invoked through the API role', () => {
    const integrations = resourcesOf(real.json, 'AWS::ApiGatewayV2::Integration').filter(
      ([, i]) => i.Properties.IntegrationType === 'AWS_PROXY' && i.Properties.CredentialsArn,
    );
    expect(integrations).toHaveLength(manifest.http.length);
    const invokeRole = integrations[0]![1].Properties.CredentialsArn['Fn::GetAtt'][0];
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
      expect(env).toEqual(
        expect.arrayContaining([
          'TABLE_NAME',
          'MEDIA_BUCKET',
          'WS_ENDPOINT',
          'JWT_SECRET_ARN',
          'APP_ORIGIN',
          ...manifest.queues.map((q) => queueEnvName(q.name)),
        ]),
      );
      expect(invokable).toContain(`"${id}"`);
      expect(integrations.some(([, i]) => i.Properties.IntegrationUri['Fn::GetAtt'][0] === id)).toBe(true);
    }
  });

  it('only the seed may read the admin password secret; the app functions share one role', () => {
    const adminSecret =
      real.json.Resources[functionLogicalId(real.json, 'Seed')]!.Properties.Environment.Variables
        .ADMIN_PASSWORD_SECRET_ARN.Ref;
    const roles = new Set(
      [...manifest.http.map((m) => `http/${m.name}`), ...Object.values(manifest.ws)].map(
        (module) => real.json.Resources[functionLogicalId(real.json, module)]!.Properties.Role['Fn::GetAtt'][0],
      ),
    );
    expect(roles.size).toBe(1);
    const appRole = [...roles][0]!;
    const seedRole = real.json.Resources[functionLogicalId(real.json, 'Seed')]!.Properties.Role['Fn::GetAtt'][0];
    expect(seedRole).not.toBe(appRole);
    const readsAdminSecret = (role: string) =>
      JSON.stringify(policyStatements(real.json, role)).includes(`"${adminSecret}"`);
    expect(readsAdminSecret(seedRole)).toBe(true);
    expect(readsAdminSecret(appRole)).toBe(false);
    const task = resourcesOf(real.json, 'AWS::ECS::TaskDefinition')[0]![1];
    expect(readsAdminSecret(task.Properties.TaskRoleArn['Fn::GetAtt'][0])).toBe(false);
  });

  it('every function gets a QUEUE_URL_<NAME> per manifest queue and may send to it', () => {
    const fn = sample.json.Resources[functionLogicalId(sample.json, 'http/auth')]!;
    for (const def of extended.queues) {
      const queueId = resourcesOf(sample.json, 'AWS::SQS::Queue').find(
        ([, q]) => q.Properties.QueueName === `Inbox-${def.name}${def.fifo ? '.fifo' : ''}`,
      )?.[0];
      expect(queueId, def.name).toBeDefined();
      expect(fn.Properties.Environment.Variables[queueEnvName(def.name)]).toEqual({ Ref: queueId });
    }
    expect(queueEnvName('session-commands')).toBe('QUEUE_URL_SESSION_COMMANDS');
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

  it('the session runner task may consume the queues whose consumer is session-runner', () => {
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

  it('functions may post to WebSocket connections (execute-api:ManageConnections)', () => {
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

  it('the table matches infra/table.ts: keys, GSIs (ALL projection), TTL `ttl`, PITR, on-demand, retained', () => {
    const expected = createTableInput('x');
    const [, table] = resourcesOf(real.json, 'AWS::DynamoDB::Table')[0]!;
    expect(resourcesOf(real.json, 'AWS::DynamoDB::Table')).toHaveLength(1);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
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
      expect.arrayContaining(['TABLE_NAME', 'MEDIA_BUCKET', 'WS_ENDPOINT', 'JWT_SECRET_ARN', 'APP_ORIGIN']),
    );
    real.template.hasResourceProperties('AWS::ECS::Service', { LaunchType: 'FARGATE', DesiredCount: 1 });
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
    expect(secrets).toHaveLength(2);
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

  it('the stack stays well under the 500-resource limit', () => {
    const count = Object.keys(real.json.Resources).length;
    console.log(`infra: ${count} CloudFormation resources (limit 500)`);
    expect(count).toBeLessThan(400);
  });
});
