import type { CustomField, CustomFieldEntity } from '#shared/schemas/custom-fields';
import { fieldsOf } from '#shared/schemas/custom-fields';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';

/** The company's field definitions (one small list), kept fresh by the `customField` event. */
export function useCustomFields(entity?: CustomFieldEntity) {
  const { data, mutate, isLoading } = useApi<CustomField[]>('/custom-fields');
  useRealtimeEvent('customField', () => void mutate());
  const all = data ?? [];
  return { fields: entity ? fieldsOf(all, entity) : all, all, mutate, isLoading };
}
