import type { Locales } from './types';

/** The personal to-do list (2.3). */
export default {
  pt: { title: 'Tarefas', newTask: 'Nova tarefa', empty: 'Nenhuma tarefa.' },
  en: { title: 'To-do', newTask: 'New task', empty: 'No tasks.' },
  es: { title: 'Tareas', newTask: 'Nueva tarea', empty: 'Sin tareas.' },
} satisfies Locales;
