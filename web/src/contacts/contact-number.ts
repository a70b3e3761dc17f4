/**
 * A contact's number as shown: WhatsApp may know a customer only by its `@lid` id (or username),
 * without a phone number; such a contact reads "no number (WhatsApp ID)" instead of a blank.
 */
export const shownNumber = (number: string | null | undefined, t: (key: 'common:noNumber') => string) =>
  number || t('common:noNumber');
