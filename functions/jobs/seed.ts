import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import webpush from 'web-push';
import { seedPlatform } from '#lib/accounts/seed';
import { config } from '#lib/config';
import { log } from '#lib/log';
import { ensureVapidKeys } from '#lib/secrets';

/** On AWS the admin password is generated into Secrets Manager; the stack passes its ARN. */
async function passwordFromSecret(): Promise<string | undefined> {
  const secretArn = process.env.ADMIN_PASSWORD_SECRET_ARN;
  if (!secretArn) return undefined;
  const out = await new SecretsManagerClient({ region: config().region }).send(
    new GetSecretValueCommand({ SecretId: secretArn }),
  );
  return out.SecretString;
}

/** Run once after deployment (a CDK trigger) and at every local start; idempotent. */
export async function handler(event: { adminEmail?: string; adminPassword?: string } | null = {}) {
  const adminEmail = event?.adminEmail ?? process.env.ADMIN_EMAIL ?? 'admin@admin.com';
  const adminPassword = event?.adminPassword ?? process.env.ADMIN_PASSWORD ?? (await passwordFromSecret());
  if (!adminPassword)
    throw new Error('ADMIN_PASSWORD or ADMIN_PASSWORD_SECRET_ARN must be set to seed the platform admin');
  const seeded = await seedPlatform({ adminEmail, adminPassword });
  // Web Push keys, made once into their (empty) secret; locally the stack keeps them under its data folder
  const vapid = await ensureVapidKeys(() => webpush.generateVAPIDKeys());
  if (vapid === 'created') log.info('VAPID keys generated');
  return seeded;
}
