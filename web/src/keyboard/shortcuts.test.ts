import { describe, expect, test } from 'vitest';
import { shortcutOf } from './dispatch';
import { ariaKeys, macroKeys } from './shortcuts';

const field = (tagName: string, type = 'text') =>
  ({ tagName, type, isContentEditable: false }) as unknown as EventTarget;
const body = field('BODY');
const press = (key: string, more: Partial<Parameters<typeof shortcutOf>[0]> = {}) =>
  shortcutOf({ key, code: '', altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, target: body, ...more });

describe('keyboard shortcuts (issue 40 item 5)', () => {
  test('Ctrl-K and Cmd-K open the command bar, even while typing', () => {
    expect(press('k', { ctrlKey: true })).toBe('commandBar');
    expect(press('K', { metaKey: true, target: field('TEXTAREA') })).toBe('commandBar');
    expect(press('k', { ctrlKey: true, shiftKey: true })).toBeNull();
  });
  test('letters are shortcuts outside text fields only', () => {
    expect(press('j')).toBe('nextTicket');
    expect(press('k')).toBe('previousTicket');
    expect(press('a')).toBe('accept');
    expect(press('e')).toBe('resolve');
    expect(press('t')).toBe('transfer');
    expect(press('r')).toBe('focusComposer');
    expect(press('?', { shiftKey: true })).toBe('help');
    for (const target of [field('TEXTAREA'), field('INPUT'), field('INPUT', 'search')]) {
      expect(press('e', { target })).toBeNull();
      expect(press('?', { shiftKey: true, target })).toBeNull();
    }
    // a checkbox or a button with the focus is not a text field
    expect(press('e', { target: field('INPUT', 'checkbox') })).toBe('resolve');
  });
  test('a letter with a modifier is not the plain letter', () => {
    expect(press('E', { shiftKey: true })).toBeNull();
    expect(press('e', { ctrlKey: true })).toBeNull();
    expect(press('x')).toBeNull();
  });
  test('Alt+arrows step through the list, also from the composer', () => {
    expect(press('ArrowDown', { altKey: true, target: field('TEXTAREA') })).toBe('nextTicket');
    expect(press('ArrowUp', { altKey: true })).toBe('previousTicket');
    expect(press('ArrowDown')).toBeNull();
  });
  test("Alt+1..9 run the macro bearing that shortcut, by the key's place (Option+1 types ¡ on a Mac)", () => {
    expect(press('¡', { altKey: true, code: 'Digit1' })).toEqual({ macro: 'alt+1' });
    expect(press('9', { altKey: true, code: 'Digit9', target: field('TEXTAREA') })).toEqual({ macro: 'alt+9' });
    expect(press('0', { altKey: true, code: 'Digit0' })).toBeNull();
    expect(macroKeys('alt+3')).toBe('Alt+3');
  });
  test('aria-keyshortcuts lists every combination', () => {
    expect(ariaKeys('commandBar')).toBe('Control+K Meta+K');
    expect(ariaKeys('resolve')).toBe('E');
  });
});
