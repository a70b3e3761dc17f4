import { App } from 'aws-cdk-lib';
import { EdgeStack } from './edge';
import { InboxStack } from './inbox-stack';
import { SESSIONS_PER_RUNNER } from './session-runner';

// Environment-agnostic: synth needs no AWS account or lookups, so it works offline. Only the WAF
// stack is pinned, to us-east-1, where CloudFront's web ACLs live.
const app = new App();
const stackName = app.node.tryGetContext('stackName') ?? 'Inbox';
const edge = new EdgeStack(app, `${stackName}-Edge`, {
  parameterName: `/${stackName}/edge/web-acl-arn`,
  description: 'Inbox: WAF web ACL for the CloudFront distribution',
});
new InboxStack(app, stackName, {
  adminEmail: app.node.tryGetContext('adminEmail') ?? process.env.ADMIN_EMAIL ?? 'admin@admin.com',
  mailFrom: app.node.tryGetContext('mailFrom'),
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  minRunners: Number(app.node.tryGetContext('runnerMin') ?? 2),
  maxRunners: Number(app.node.tryGetContext('runnerMax') ?? 10),
  sessionsPerRunner: Number(app.node.tryGetContext('runnerSessionsTarget') ?? SESSIONS_PER_RUNNER),
  search: app.node.tryGetContext('search') === 'on',
  edge,
  description: 'Inbox: multi-tenant WhatsApp customer-service inbox',
});
