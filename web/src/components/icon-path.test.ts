import { describe, expect, test } from 'vitest';
import forum from '@mui/icons-material/Forum?raw';
import translate from '@mui/icons-material/Translate?raw';
import { iconPath } from './icon-path';

describe('plain icons (the login page without MUI)', () => {
  test("the path of the icons the public pages draw is read from @mui/icons-material's own module", () => {
    for (const source of [forum, translate]) expect(iconPath(source)).toMatch(/^[Mm][\d.\s,mlhvczsqtaMLHVCZSQTA-]+$/);
  });
  test('a source without a single path is refused, not drawn empty', () => {
    expect(() => iconPath('export default 1')).toThrow(/no single-path icon/);
  });
});
