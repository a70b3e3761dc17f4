import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as triggers from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import { access, manifest as appManifest } from '../manifest';
import { Api, Realtime } from './api';
import { AppFunction, FunctionRegistry, type AppResources } from './app-function';
import { Data } from './data';
import { type EdgeStack, webAclArnOf } from './edge';
import { Queues, Timers } from './queues';
import { SessionRunner } from './session-runner';
import { Web } from './web';
import { SEARCH_INDEX, Search } from './search';

export type AppManifest = typeof appManifest;

export interface InboxStackProps extends StackProps {
  /** e-mail of the platform super admin the seed creates */
  adminEmail: string;
  /** the app manifest (tests pass a variant to exercise every kind of entry) */
  manifest?: AppManifest;
  /** the WAF (us-east-1) in front of the distribution; this stack must deploy after it */
  edge?: EdgeStack;
  /** sender address verified in SES (context `mailFrom`); without it no e-mail is sent, only logged */
  mailFrom?: string;
  /** where alarms (dead letters) are e-mailed (context `alarmEmail`); without it, subscribe to AlarmTopic */
  alarmEmail?: string;
  /** session runner tasks: at least (context `runnerMin`, default 2) and at most (`runnerMax`, default 10) */
  minRunners?: number;
  maxRunners?: number;
  /** sessions per runner task that scaling aims at (context `runnerSessionsTarget`, default 50) */
  sessionsPerRunner?: number;
  /** full-text search (context `search=on`): an OpenSearch domain fed from the table's stream (docs/search.md) */
  search?: boolean;
}

/**
 * The whole product on AWS, generated from infra/manifest.ts. One stack, split by concern into
 * constructs; only the HTTP routes sit in a nested stack (api.ts), for the 500-resource limit
 * of a template. Order matters only because every function receives the URLs of the queues, the
 * WebSocket stage and the distribution, so those shells exist before the functions that the
 * routes, event sources and rules then attach.
 */
export class InboxStack extends Stack {
  constructor(scope: Construct, id: string, props: InboxStackProps) {
    super(scope, id, props);
    const manifest = props.manifest ?? appManifest;

    const alarms = new sns.Topic(this, 'AlarmTopic', { displayName: 'Inbox alarms', enforceSSL: true });
    if (props.alarmEmail) alarms.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const data = new Data(this, 'Data');
    const queues = new Queues(this, 'Queues', manifest.queues, alarms);
    const realtime = new Realtime(this, 'Realtime');
    const api = new Api(this, 'Api');
    if (props.edge) this.addStackDependency(props.edge, 'the distribution uses its web ACL');
    const web = new Web(this, 'Web', {
      httpApi: api.httpApi,
      webSocketApi: realtime.webSocketApi,
      wsStage: realtime.stage,
      originVerifySecret: data.originVerifySecret,
      webAclArn: props.edge ? webAclArnOf(this, props.edge) : undefined,
      accessLogs: data.accessLogs,
    });
    data.allowUploadsFrom(web.origin);
    const search = props.search ? new Search(this, 'Search') : undefined;

    const resources: AppResources = {
      table: data.table,
      mediaBucket: data.mediaBucket,
      queues: queues.byName,
      wsStage: realtime.stage,
      jwtSecret: data.jwtSecret,
      dataKeySecret: data.dataKeySecret,
      vapidSecret: data.vapidSecret,
      appOrigin: web.origin,
      mailFrom: props.mailFrom,
      ...(search ? { search: { domain: search.domain, index: SEARCH_INDEX } } : {}),
    };
    const functions = new FunctionRegistry(this, resources);
    api.mount(manifest.http, functions, data.originVerifySecret);
    realtime.mount(manifest.ws, functions, data.originVerifySecret);
    queues.attachConsumers(functions);
    new Timers(this, 'Timers', manifest.timers, functions);
    search?.feed(data.table, manifest.streamConsumers, functions, alarms);
    // the roles of the access groups that reach the domain
    search?.allow(
      (Object.keys(access) as (keyof typeof access)[])
        .filter((group) => 'search' in access[group])
        .map((group) => functions.role(group)),
    );

    new SessionRunner(this, 'SessionRunner', {
      resources,
      consumes: queues.sessionRunnerQueues,
      alarms,
      accessLogs: data.accessLogs,
      minRunners: props.minRunners,
      maxRunners: props.maxRunners,
      sessionsPerRunner: props.sessionsPerRunner,
    });

    // The platform company and its super admin, created (idempotently) after every deployment
    // that changes the seed; the password is generated into Secrets Manager, never the template.
    const seed = new AppFunction(this, 'Seed', {
      module: 'jobs/seed',
      resources,
      access: access.seed,
      role: functions.role('seed'),
      logGroup: functions.logGroup,
      timeoutSeconds: 120,
    });
    seed.addEnvironment('ADMIN_EMAIL', props.adminEmail);
    seed.addEnvironment('ADMIN_PASSWORD_SECRET_ARN', data.adminPasswordSecret.secretArn);
    data.adminPasswordSecret.grantRead(seed);
    new triggers.Trigger(this, 'SeedTrigger', { handler: seed, executeAfter: [data], executeOnHandlerChange: true });

    new CfnOutput(this, 'Url', { value: web.origin, description: 'The app (web, /api and /ws)' });
    new CfnOutput(this, 'AdminEmail', { value: props.adminEmail, description: 'Super admin e-mail' });
    new CfnOutput(this, 'AdminPasswordSecretName', {
      value: data.adminPasswordSecret.secretName,
      description: 'Secrets Manager secret holding the super admin password',
    });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'MediaBucketName', { value: data.mediaBucket.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topicArn, description: 'SNS topic of the alarms' });
    if (search)
      new CfnOutput(this, 'SearchEndpoint', {
        value: `https://${search.domain.domainEndpoint}`,
        description: 'OpenSearch domain of full-text search (SEARCH_ENDPOINT of npm run reindex)',
      });
  }
}
