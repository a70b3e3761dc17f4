import type { Locales } from './types';

/** Snooze (issue 40): the dialog, loaded with it (the ticket page's first download stays as it was). */
export default {
  pt: {
    title: 'Adiar atendimento',
    choice: 'Até quando',
    presets: {
      oneHour: 'Em 1 hora',
      threeHours: 'Em 3 horas',
      tomorrow: 'Amanhã às 9:00',
      nextMonday: 'Segunda-feira às 9:00',
      custom: 'Escolher data e hora',
      customerWrites: 'Até o cliente escrever',
    },
    when: 'Data e hora',
    invalid: 'Escolha um horário no futuro, em até 90 dias.',
    hint: 'Sai da lista de abertos e volta quando chegar a hora ou quando o cliente escrever.',
    confirm: 'Adiar',
    cancel: 'Cancelar',
    done: 'Atendimento adiado.',
  },
  en: {
    title: 'Snooze ticket',
    choice: 'Until when',
    presets: {
      oneHour: 'In 1 hour',
      threeHours: 'In 3 hours',
      tomorrow: 'Tomorrow at 9:00',
      nextMonday: 'Next Monday at 9:00',
      custom: 'Pick a date and time',
      customerWrites: 'Until the customer writes',
    },
    when: 'Date and time',
    invalid: 'Choose a time in the future, at most 90 days ahead.',
    hint: 'It leaves the open list and comes back when the time comes or when the customer writes.',
    confirm: 'Snooze',
    cancel: 'Cancel',
    done: 'Ticket snoozed.',
  },
  es: {
    title: 'Posponer ticket',
    choice: 'Hasta cuándo',
    presets: {
      oneHour: 'En 1 hora',
      threeHours: 'En 3 horas',
      tomorrow: 'Mañana a las 9:00',
      nextMonday: 'El lunes a las 9:00',
      custom: 'Elegir fecha y hora',
      customerWrites: 'Hasta que el cliente escriba',
    },
    when: 'Fecha y hora',
    invalid: 'Elija una hora futura, dentro de los próximos 90 días.',
    hint: 'Sale de la lista de abiertos y vuelve cuando llegue la hora o cuando el cliente escriba.',
    confirm: 'Posponer',
    cancel: 'Cancelar',
    done: 'Ticket pospuesto.',
  },
} satisfies Locales;
