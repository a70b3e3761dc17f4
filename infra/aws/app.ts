import { App } from 'aws-cdk-lib';
import { InboxStack } from './inbox-stack';

// Environment-agnostic: synth needs no AWS account or lookups, so it works offline.
const app = new App();
const stackName = app.node.tryGetContext('stackName') ?? 'Inbox';
new InboxStack(app, stackName, {
  adminEmail: app.node.tryGetContext('adminEmail') ?? process.env.ADMIN_EMAIL ?? 'admin@admin.com',
  description: 'Inbox: multi-tenant WhatsApp customer-service inbox',
});
