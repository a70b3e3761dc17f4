import '#lib/startup';
import { httpModule, route } from '#lib/http';
import { VERSION } from '#shared/constants';

export const handler = httpModule({
  'GET /version': route({ public: true }, async () => ({ version: VERSION })),
});
