import Slider from '@mui/material/Slider';
import { VOLUME_STEP } from '#shared/constants';

/** The notification volume's slider, loaded when the volume popover first opens (issue 25: not on first paint). */
export default function VolumeSlider({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange(value: number): void;
}) {
  return (
    <Slider
      aria-label={label}
      min={0}
      max={1}
      step={VOLUME_STEP}
      value={value}
      valueLabelDisplay="auto"
      onChange={(_, v) => onChange(Array.isArray(v) ? v[0] : v)}
    />
  );
}
