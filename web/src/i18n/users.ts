import type { Locales } from './types';

/** Users page (attendance.md 2.14; the modal's own strings live in `common:userModal`). */
export default {
  pt: {
    title: 'Usuários',
    add: 'Adicionar usuário',
    search: 'Pesquisar usuários',
    columns: { id: 'ID', name: 'Nome', email: 'E-mail', profile: 'Perfil', queues: 'Filas', actions: 'Ações' },
    edit: 'Editar usuário {{name}}',
    delete: 'Excluir usuário {{name}}',
    confirmDelete: 'Excluir o usuário {{name}}? Os atendimentos abertos dele voltarão para a fila.',
    deleted: 'Usuário excluído com sucesso.',
    empty: 'Nenhum usuário encontrado.',
  },
  en: {
    title: 'Users',
    add: 'Add user',
    search: 'Search users',
    columns: { id: 'ID', name: 'Name', email: 'E-mail', profile: 'Profile', queues: 'Queues', actions: 'Actions' },
    edit: 'Edit user {{name}}',
    delete: 'Delete user {{name}}',
    confirmDelete: 'Delete the user {{name}}? Their open tickets go back to the queue.',
    deleted: 'User deleted successfully.',
    empty: 'No users found.',
  },
  es: {
    title: 'Usuarios',
    add: 'Agregar usuario',
    search: 'Buscar usuarios',
    columns: { id: 'ID', name: 'Nombre', email: 'Correo', profile: 'Perfil', queues: 'Colas', actions: 'Acciones' },
    edit: 'Editar usuario {{name}}',
    delete: 'Eliminar usuario {{name}}',
    confirmDelete: '¿Eliminar el usuario {{name}}? Sus atenciones abiertas vuelven a la cola.',
    deleted: 'Usuario eliminado con éxito.',
    empty: 'No se encontraron usuarios.',
  },
} satisfies Locales;
