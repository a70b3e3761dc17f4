import type { Locales } from './types';

/** The installed app: the offline notice and the new-version prompt (issue 25). */
export default {
  pt: {
    offline: 'Sem conexão. O que você fizer agora não será enviado; tente de novo quando a conexão voltar.',
    update: {
      ready: 'Nova versão disponível.',
      reload: 'Atualizar',
    },
  },
  en: {
    offline: 'You are offline. Nothing you do now will be sent; try again when the connection is back.',
    update: {
      ready: 'A new version is available.',
      reload: 'Update',
    },
  },
  es: {
    offline: 'Sin conexión. Lo que hagas ahora no se enviará; inténtalo de nuevo cuando vuelva la conexión.',
    update: {
      ready: 'Nueva versión disponible.',
      reload: 'Actualizar',
    },
  },
} satisfies Locales;
