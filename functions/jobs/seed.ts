import { seedPlatform } from '#lib/accounts/seed';

/** Run once after deployment (a CDK trigger) and at every local start; idempotent. */
export async function handler(event: { adminEmail?: string; adminPassword?: string } = {}) {
  const adminEmail = event.adminEmail ?? process.env.ADMIN_EMAIL ?? 'admin@admin.com';
  const adminPassword = event.adminPassword ?? process.env.ADMIN_PASSWORD;
  if (!adminPassword) throw new Error('ADMIN_PASSWORD must be set to seed the platform admin');
  return seedPlatform({ adminEmail, adminPassword });
}
