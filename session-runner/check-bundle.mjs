/**
 * Fails the runner's build (`npm run build:runner`, which the image build runs) when the bundle lacks
 * what patches/ adds to Baileys: without the receipt hook WhatsApp is told a message arrived before
 * it is stored, and a crash in between loses it, silently.
 *   node session-runner/check-bundle.mjs dist/session-runner/main.mjs
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What the patched Baileys must contain, by what it does. */
export const REQUIRED = [
  {
    what: "Baileys' receipt hook (patches/@whiskeysockets+baileys+*.patch): a message is stored before its delivery receipt",
    // the call inside Baileys' receipt path, whatever the minifier named the config
    pattern: /await [\w$]+\.beforeDeliveryReceipt\?\.\(/,
  },
];

/** The required pieces the bundle text lacks. */
export function missingFromBundle(text) {
  return REQUIRED.filter((r) => !r.pattern.test(text)).map((r) => r.what);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'dist/session-runner/main.mjs';
  const missing = missingFromBundle(readFileSync(file, 'utf8'));
  if (missing.length > 0) {
    console.error(`${file} lacks:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`${file}: the Baileys patch is in the bundle`);
}
