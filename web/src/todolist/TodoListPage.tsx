import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import { addTodo, editTodo, loadTodos, removeTodo, saveTodos, type Todo } from './todos';

export default function TodoListPage() {
  const { t } = useTranslation(['todo', 'common']);
  const [list, setList] = useState<Todo[]>(() => loadTodos());
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  const update = (next: Todo[]) => {
    setList(next);
    saveTodos(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update(editing ? editTodo(list, editing, text) : addTodo(list, text));
    setEditing(null);
    setText('');
  };

  return (
    <Box sx={{ p: 2, overflowY: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('title')}
      </Typography>
      <Paper sx={{ p: 2, maxWidth: 720 }}>
        <Stack component="form" direction="row" spacing={1} onSubmit={submit}>
          <TextField
            label={t('newTask')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            fullWidth
            size="small"
          />
          <Button type="submit" variant="contained">
            {editing ? t('common:buttons.save') : t('common:buttons.add')}
          </Button>
        </Stack>
        <List aria-label={t('title')}>
          {list.length === 0 && (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              {t('empty')}
            </Typography>
          )}
          {list.map((todo) => (
            <ListItem
              key={todo.id}
              divider
              secondaryAction={
                <>
                  <IconButton
                    aria-label={t('common:buttons.edit')}
                    onClick={() => {
                      setEditing(todo.id);
                      setText(todo.text);
                    }}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton aria-label={t('common:buttons.delete')} onClick={() => update(removeTodo(list, todo.id))}>
                    <DeleteIcon />
                  </IconButton>
                </>
              }
            >
              <ListItemText primary={todo.text} secondary={formatDateTime(todo.updatedAt)} />
            </ListItem>
          ))}
        </List>
      </Paper>
    </Box>
  );
}
