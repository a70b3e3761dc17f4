/** The path of an @mui/icons-material module's source (`import source from '@mui/icons-material/Forum?raw'`). */
export function iconPath(source: string): string {
  const path = /\bd:\s*"([^"]+)"/.exec(source)?.[1];
  if (!path) throw new Error('no single-path icon in this @mui/icons-material source');
  return path;
}
