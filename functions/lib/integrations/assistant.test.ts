import { describe, it, expect } from 'vitest';
import { PROMPT_TRANSFER_PHRASE } from '#shared/schemas/prompts';
import { splitTransfer } from './assistant';

describe('the agreed transfer phrase', () => {
  it('is removed from the answer, whatever its case, accents or quotes, and asks for the transfer', () => {
    expect(splitTransfer(`Claro! ${PROMPT_TRANSFER_PHRASE}`)).toEqual({ text: 'Claro!', transfer: true });
    expect(splitTransfer('Um momento.\n"acao: transferir para o SETOR de atendimento."')).toEqual({
      text: 'Um momento.',
      transfer: true,
    });
    expect(splitTransfer(PROMPT_TRANSFER_PHRASE)).toEqual({ text: '', transfer: true });
  });

  it('an ordinary answer is sent as it is', () => {
    expect(splitTransfer('  Abrimos às 9h.  ')).toEqual({ text: 'Abrimos às 9h.', transfer: false });
    expect(splitTransfer('Posso transferir você para vendas?')).toEqual({
      text: 'Posso transferir você para vendas?',
      transfer: false,
    });
  });
});
