/** Key helpers shared by the entity modules. Only entity modules build `pk`/`sk` strings. */
export const pad = (n: number, width = 10) => String(n).padStart(width, '0');
export const C = (companyId: number) => `C#${companyId}`;
export const nowIso = () => new Date().toISOString();
/** DynamoDB TTL: epoch seconds. */
export const ttlIn = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;
