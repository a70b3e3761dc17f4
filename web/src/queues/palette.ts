import type { Theme } from '@mui/material';

/**
 * The fixed queue colour palette (management.md "Queues" and section 9: 50 colours), light to dark
 * rows of the same hues so neighbouring swatches are easy to tell apart.
 */
export const QUEUE_PALETTE = [
  '#E57373',
  '#F06292',
  '#BA68C8',
  '#9575CD',
  '#7986CB',
  '#64B5F6',
  '#4DD0E1',
  '#4DB6AC',
  '#81C784',
  '#AED581',
  '#DCE775',
  '#FFD54F',
  '#FFB74D',
  '#FF8A65',
  '#A1887F',
  '#90A4AE',
  '#E0E0E0',
  '#F44336',
  '#E91E63',
  '#9C27B0',
  '#673AB7',
  '#3F51B5',
  '#2196F3',
  '#00BCD4',
  '#009688',
  '#4CAF50',
  '#8BC34A',
  '#CDDC39',
  '#FFC107',
  '#FF9800',
  '#FF5722',
  '#795548',
  '#607D8B',
  '#9E9E9E',
  '#D32F2F',
  '#C2185B',
  '#7B1FA2',
  '#512DA8',
  '#303F9F',
  '#1976D2',
  '#0097A7',
  '#00796B',
  '#388E3C',
  '#689F38',
  '#AFB42B',
  '#FFA000',
  '#F57C00',
  '#E64A19',
  '#5D4037',
  '#455A64',
] as const;

/** The first palette colour no other queue uses yet (queue colours are unique per company). */
export const firstFreeColor = (used: readonly string[]) => {
  const taken = new Set(used.map((c) => c.toUpperCase()));
  return QUEUE_PALETTE.find((c) => !taken.has(c)) ?? QUEUE_PALETTE[0];
};

/** Readable text on a user-chosen colour (MUI throws on colour names it cannot parse). */
export const textOn = (th: Theme, color: string) => {
  try {
    return th.palette.getContrastText(color);
  } catch {
    return th.palette.text.primary;
  }
};
