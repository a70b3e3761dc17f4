import type { Locales } from './types';

/** Help centre (management.md "Help page"). */
export default {
  pt: { title: 'Ajuda', empty: 'Nenhum vídeo de ajuda.', play: 'Assistir {{title}}', close: 'Fechar' },
  en: { title: 'Help', empty: 'No help videos.', play: 'Watch {{title}}', close: 'Close' },
  es: { title: 'Ayuda', empty: 'No hay videos de ayuda.', play: 'Ver {{title}}', close: 'Cerrar' },
} satisfies Locales;
