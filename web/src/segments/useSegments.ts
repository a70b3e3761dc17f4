import type { Segment } from '#shared/schemas/segments';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';

/** The company's segments (one small list), kept fresh by the `segment` event. */
export function useSegments() {
  const { data, mutate, isLoading } = useApi<Segment[]>('/segments');
  useRealtimeEvent('segment', () => void mutate());
  return { segments: data ?? [], mutate, isLoading };
}
