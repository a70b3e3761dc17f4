import { Chip, type ChipProps } from '@mui/material';
import type { Tag } from './types';

/** A tag in its colour. */
export function TagChip({ tag, ...props }: { tag: Tag } & Omit<ChipProps, 'label'>) {
  return <Chip {...props} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} />;
}
