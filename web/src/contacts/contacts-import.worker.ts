import { parseContactsFile } from './contacts-import';

/** Parses an imported spreadsheet off the main thread (see readContactsFile). */
self.onmessage = async (event: MessageEvent<ArrayBuffer>) => {
  try {
    self.postMessage({ rows: await parseContactsFile(event.data) });
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
