import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { AuthStore } from '../../auth-store';

export const BAILEYS_CODEC = {
  encode: (value: unknown) => JSON.stringify(value, BufferJSON.replacer),
  decode: (text: string) => JSON.parse(text, BufferJSON.reviver),
};

/**
 * Baileys' auth state on the DynamoDB AuthStore: credentials plus every signal key type
 * (pre-key, session, sender-key, app-state-sync-key/version, lid-mapping, device-list, tctoken ...),
 * one item per key, read through a cache, each `keys.set` persisted before it resolves.
 */
export async function loadDynamoAuthState(store: AuthStore) {
  store.withCodec(BAILEYS_CODEC);
  const creds: AuthenticationCreds = (await store.readCreds<AuthenticationCreds>()) ?? initAuthCreds();
  const keys: SignalKeyStore = {
    get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const found = await store.getKeys(type, ids);
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const [id, value] of Object.entries(found)) {
        out[id] = (
          type === 'app-state-sync-key' ? proto.Message.AppStateSyncKeyData.fromObject(value as object) : value
        ) as SignalDataTypeMap[T];
      }
      return out;
    },
    set: async (data: SignalDataSet) => {
      await store.setKeys(data as Record<string, Record<string, unknown>>);
    },
    clear: async () => store.clear(),
  };
  return {
    state: { creds, keys },
    saveCreds: () => store.writeCreds(creds),
  };
}
