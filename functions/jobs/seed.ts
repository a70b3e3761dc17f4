import '#lib/startup';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import webpush from 'web-push';
import { seedPlatform } from '#lib/accounts/seed';
import { config } from '#lib/config';
import { log } from '#lib/log';
import { ensureVapidKeys } from '#lib/secrets';
import { budgetFor, runUpgrades } from '#lib/upgrades/run';

/** On AWS the admin password is generated into Secrets Manager; the stack passes its ARN. */
async function passwordFromSecret(): Promise<string | undefined> {
  const secretArn = process.env.ADMIN_PASSWORD_SECRET_ARN;
  if (!secretArn) return undefined;
  const out = await new SecretsManagerClient({ region: config().region }).send(
    new GetSecretValueCommand({ SecretId: secretArn }),
  );
  return out.SecretString;
}

/**
 * Run once after deployment (a CDK trigger) and at every local start; idempotent. It ends with the
 * data upgrades the new version brings (lib/upgrades/run.ts), within the time the Lambda has left.
 */
export async function handler(
  event: { adminEmail?: string; adminPassword?: string } | null = {},
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
) {
  const adminEmail = event?.adminEmail ?? process.env.ADMIN_EMAIL ?? 'admin@admin.com';
  const adminPassword = event?.adminPassword ?? process.env.ADMIN_PASSWORD ?? (await passwordFromSecret());
  if (!adminPassword)
    throw new Error('ADMIN_PASSWORD or ADMIN_PASSWORD_SECRET_ARN must be set to seed the platform admin');
  const seeded = await seedPlatform({ adminEmail, adminPassword });
  // Web Push keys, made once into their (empty) secret; locally the stack keeps them under its data folder
  const vapid = await ensureVapidKeys(() => webpush.generateVAPIDKeys());
  if (vapid === 'created') log.info('VAPID keys generated');
  // An upgrade that fails must not fail (and roll back) the deployment: it is logged, and the next
  // run (deployment or local start) continues it from where it stopped.
  const upgrades = await runUpgrades({ budgetMs: budgetFor(context) }).catch((err: unknown) => {
    log.error('data upgrade failed', { error: String(err), stack: err instanceof Error ? err.stack : undefined });
    return [];
  });
  return { ...seeded, upgrades };
}
