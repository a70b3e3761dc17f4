import Alert from '@mui/material/Alert';
import MuiTheme from '../theme/MuiTheme';

/** "This company expired on ...": MUI's Alert, loaded only when the login is refused for it. */
export default function ExpiredAlert({ text }: { text: string }) {
  return (
    <MuiTheme>
      <Alert severity="error">{text}</Alert>
    </MuiTheme>
  );
}
