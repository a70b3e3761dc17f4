import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { config } from '../config';
import { MemorySearch } from './memory';
import { OpenSearch } from './opensearch';
import type { SearchPort } from './port';

/**
 * The search port of this process: OpenSearch when SEARCH_ENDPOINT names a domain (AWS, with
 * `search=on`), otherwise the embedded index, persisted under SEARCH_DIR or in memory. The embedded
 * index is one per process: locally the API handlers and the stream feed run in the same process.
 */
let port: SearchPort | undefined;

export function searchPort(): SearchPort {
  if (port) return port;
  const { searchEndpoint, searchIndex, searchDir, region } = config();
  port = searchEndpoint
    ? new OpenSearch({ endpoint: searchEndpoint, index: searchIndex, region, credentials: defaultProvider() })
    : new MemorySearch(searchDir);
  return port;
}

/** Whether search is served at all: on AWS only when the stack was deployed with `search=on`. */
export const searchEnabled = () => !config().searchOff;

/** The local runtime: writes what the embedded index holds and forgets it (a new stack starts another). */
export function closeSearch() {
  if (port instanceof MemorySearch) port.close();
  port = undefined;
}
