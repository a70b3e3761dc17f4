import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { EdgeStack } from '../../infra/aws/edge';
import { InboxStack, type InboxStackProps } from '../../infra/aws/inbox-stack';

const ROOT = resolve(import.meta.dirname, '../..');
const cdkJson = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8'));

/**
 * The app as infra/aws/app.ts composes it, with cdk.json's feature flags, but with bundling skipped
 * (no esbuild, no Docker). Synthesize it with Template.fromStack() or app.synth().
 */
export function buildApp(props: Partial<Omit<InboxStackProps, 'edge'>> = {}) {
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const edge = new EdgeStack(app, 'Inbox-Edge', { parameterName: '/Inbox/edge/web-acl-arn' });
  const stack = new InboxStack(app, 'Inbox', { adminEmail: 'admin@example.com', ...props, edge });
  return { app, edge, stack };
}
