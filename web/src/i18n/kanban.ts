import type { Locales } from './types';

/** Kanban board (management.md "Kanban"). */
export default {
  pt: {
    title: 'Kanban',
    untagged: 'Em aberto',
    seeTicket: 'Ver atendimento',
    empty: 'Nenhum atendimento.',
    card: 'Atendimento {{id}} de {{name}}',
    moveFailed: 'Não foi possível mover o atendimento.',
  },
  en: {
    title: 'Kanban',
    untagged: 'Open',
    seeTicket: 'See ticket',
    empty: 'No tickets.',
    card: 'Ticket {{id}} of {{name}}',
    moveFailed: 'The ticket could not be moved.',
  },
  es: {
    title: 'Kanban',
    untagged: 'Abiertos',
    seeTicket: 'Ver atención',
    empty: 'No hay atenciones.',
    card: 'Atención {{id}} de {{name}}',
    moveFailed: 'No se pudo mover la atención.',
  },
} satisfies Locales;
