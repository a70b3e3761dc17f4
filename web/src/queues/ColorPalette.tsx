import { Box, ButtonBase, Tooltip } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { QUEUE_PALETTE } from './palette';

/** The fixed 50-colour palette (management.md section 9) as a grid of labelled swatches. */
export function ColorPalette({
  value,
  onChange,
  taken = [],
}: {
  value: string;
  onChange(color: string): void;
  taken?: string[];
}) {
  const { t } = useTranslation('queues');
  const used = new Set(taken.map((c) => c.toUpperCase()));
  return (
    <Box
      role="radiogroup"
      aria-label={t('modal.color')}
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, 28px)', gap: 0.75 }}
    >
      {QUEUE_PALETTE.map((color) => {
        const selected = value.toUpperCase() === color;
        return (
          <Tooltip key={color} title={color}>
            <ButtonBase
              role="radio"
              aria-checked={selected}
              aria-label={t('modal.colorPick', { color })}
              onClick={() => onChange(color)}
              sx={{
                width: 28,
                height: 28,
                borderRadius: 1,
                bgcolor: color,
                opacity: used.has(color) && !selected ? 0.35 : 1,
                outline: selected ? '2px solid' : 'none',
                outlineColor: 'text.primary',
                outlineOffset: 1,
              }}
            >
              {selected && <CheckIcon fontSize="small" sx={{ color: '#fff', filter: 'drop-shadow(0 0 1px #000)' }} />}
            </ButtonBase>
          </Tooltip>
        );
      })}
    </Box>
  );
}
