import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as triggers from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import { manifest as appManifest } from '../manifest';
import { Api, Realtime } from './api';
import { AppFunction, FunctionRegistry, type AppResources } from './app-function';
import { Data } from './data';
import { Queues, Timers } from './queues';
import { SessionRunner } from './session-runner';
import { Web } from './web';

export type AppManifest = typeof appManifest;

export interface InboxStackProps extends StackProps {
  /** e-mail of the platform super admin the seed creates */
  adminEmail: string;
  /** the app manifest (tests pass a variant to exercise every kind of entry) */
  manifest?: AppManifest;
}

/**
 * The whole product on AWS, generated from infra/manifest.ts. One stack, split by concern into
 * constructs. Order matters only because every function receives the URLs of the queues, the
 * WebSocket stage and the distribution, so those shells exist before the functions that the
 * routes, event sources and rules then attach.
 */
export class InboxStack extends Stack {
  constructor(scope: Construct, id: string, props: InboxStackProps) {
    super(scope, id, props);
    const manifest = props.manifest ?? appManifest;

    const data = new Data(this, 'Data');
    const queues = new Queues(this, 'Queues', manifest.queues);
    const realtime = new Realtime(this, 'Realtime');
    const api = new Api(this, 'Api');
    const web = new Web(this, 'Web', {
      httpApi: api.httpApi,
      webSocketApi: realtime.webSocketApi,
      wsStage: realtime.stage,
    });
    data.allowUploadsFrom(web.origin);

    const resources: AppResources = {
      table: data.table,
      mediaBucket: data.mediaBucket,
      queues: queues.byName,
      wsStage: realtime.stage,
      jwtSecret: data.jwtSecret,
      appOrigin: web.origin,
    };
    const functions = new FunctionRegistry(this, resources);
    api.mount(manifest.http, functions);
    realtime.mount(manifest.ws, functions);
    queues.attachConsumers(functions);
    new Timers(this, 'Timers', manifest.timers, functions);

    new SessionRunner(this, 'SessionRunner', { resources, consumes: queues.sessionRunnerQueues });

    // The platform company and its super admin, created (idempotently) after every deployment
    // that changes the seed; the password is generated into Secrets Manager, never the template.
    const seed = new AppFunction(this, 'Seed', {
      module: 'jobs/seed',
      resources,
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
  }
}
