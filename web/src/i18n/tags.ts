import type { Locales } from './types';

/** Tags page and tag modal (management.md "Tags"). */
export default {
  pt: {
    title: 'Tags',
    add: 'Adicionar tag',
    search: 'Pesquisar tags',
    columns: { name: 'Nome', tickets: 'Atendimentos', kanban: 'Kanban', actions: 'Ações' },
    edit: 'Editar tag {{name}}',
    delete: 'Excluir tag {{name}}',
    confirmDelete: 'Excluir a tag {{name}}? Ela sairá de todos os atendimentos.',
    deleted: 'Tag excluída com sucesso.',
    saved: 'Tag salva com sucesso.',
    empty: 'Nenhuma tag encontrada.',
    modal: { titleAdd: 'Adicionar tag', titleEdit: 'Editar tag', name: 'Nome', color: 'Cor', kanban: 'Mostrar no Kanban', tooShort: 'Mensagem muito curta' },
  },
  en: {
    title: 'Tags',
    add: 'Add tag',
    search: 'Search tags',
    columns: { name: 'Name', tickets: 'Tickets', kanban: 'Kanban', actions: 'Actions' },
    edit: 'Edit tag {{name}}',
    delete: 'Delete tag {{name}}',
    confirmDelete: 'Delete the tag {{name}}? It leaves every ticket.',
    deleted: 'Tag deleted successfully.',
    saved: 'Tag saved successfully.',
    empty: 'No tags found.',
    modal: { titleAdd: 'Add tag', titleEdit: 'Edit tag', name: 'Name', color: 'Colour', kanban: 'Show on the Kanban', tooShort: 'Too short' },
  },
  es: {
    title: 'Etiquetas',
    add: 'Agregar etiqueta',
    search: 'Buscar etiquetas',
    columns: { name: 'Nombre', tickets: 'Atenciones', kanban: 'Kanban', actions: 'Acciones' },
    edit: 'Editar etiqueta {{name}}',
    delete: 'Eliminar etiqueta {{name}}',
    confirmDelete: '¿Eliminar la etiqueta {{name}}? Saldrá de todas las atenciones.',
    deleted: 'Etiqueta eliminada con éxito.',
    saved: 'Etiqueta guardada con éxito.',
    empty: 'No se encontraron etiquetas.',
    modal: { titleAdd: 'Agregar etiqueta', titleEdit: 'Editar etiqueta', name: 'Nombre', color: 'Color', kanban: 'Mostrar en el Kanban', tooShort: 'Mensaje muy corto' },
  },
} satisfies Locales;
