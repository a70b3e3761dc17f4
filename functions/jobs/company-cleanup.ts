import '#lib/startup';
import { runCompanyCleanup } from '#lib/billing/cleanup';
import { log } from '#lib/log';

/** Timer `company-cleanup` (platform-wide): removes deleted companies' data, media and sessions (see cleanup.ts). */
export const handler = async () => {
  const result = await runCompanyCleanup();
  if (result.cleaned) log.info('companies removed', result);
  return result;
};
