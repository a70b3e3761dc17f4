import { describe, expect, it } from 'vitest';
import { mentionedMembers } from './mentions';

const members = [
  { id: 1, name: 'Ana' },
  { id: 2, name: 'Ana Souza' },
  { id: 3, name: 'João' },
  { id: 4, name: 'Bruno' },
];
const ids = (text: string) => mentionedMembers(text, members).map((m) => m.id);

describe('@mentions in internal chat', () => {
  it('an @Name of a member, any case, anywhere in the text', () => {
    expect(ids('@João can you look?')).toEqual([3]);
    expect(ids('ping @bruno, thanks')).toEqual([4]);
    expect(ids('@Ana and @João')).toEqual([1, 3]);
  });

  it('the longest name written wins; a name must end where its word ends', () => {
    expect(ids('@Ana Souza please')).toEqual([2]);
    expect(ids('@Ana, please')).toEqual([1]);
    expect(ids('@Anabela hi')).toEqual([]);
    expect(ids('@Brunos')).toEqual([]);
  });

  it('no @, an e-mail address, or a name outside the chat mentions nobody', () => {
    expect(ids('Ana, please')).toEqual([]);
    expect(ids('write to ana@Bruno.dev')).toEqual([]);
    expect(ids('@Carla hi')).toEqual([]);
    expect(ids('@João @João')).toEqual([3]);
  });
});
