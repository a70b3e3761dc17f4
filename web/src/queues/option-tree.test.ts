import { describe, expect, test } from 'vitest';
import { addOption, buildTree, findNode, moveOption, optionPath, removeOption, updateOption } from './option-tree';

const flat = [
  { id: 1, parentId: null, title: 'Sales', message: 'm1', option: '1' },
  { id: 2, parentId: null, title: 'Support', message: 'm2', option: '2' },
  { id: 3, parentId: 2, title: 'Billing', message: 'm3', option: '1' },
  { id: 4, parentId: 2, title: 'Tech', message: 'm4', option: '2' },
  { id: 5, parentId: 2, title: 'Other', message: 'm5', option: '3' },
];

describe('chatbot option tree (management.md "Queue option")', () => {
  test('builds the nested tree from flat options (parentId) or from children, ordered by position', () => {
    const tree = buildTree([...flat].reverse());
    expect(tree.map((n) => n.title)).toEqual(['Sales', 'Support']);
    expect(tree[1].children.map((n) => n.title)).toEqual(['Billing', 'Tech', 'Other']);
    const nested = buildTree([
      {
        id: 9,
        parentId: null,
        title: 'A',
        message: '',
        option: 1,
        children: [{ id: 10, parentId: 9, title: 'B', message: '', option: 1 }],
      },
    ]);
    expect(nested[0].children[0]).toMatchObject({ id: 10, parentId: 9, title: 'B', option: '1' });
  });

  test('adds an option at the end of any level, with the next position and its parent id', () => {
    const tree = buildTree(flat);
    const top = addOption(tree, null);
    expect(findNode(top.tree, top.key)).toMatchObject({ parentId: null, option: '3' });
    expect(findNode(top.tree, top.key)!.id).toBeUndefined();
    const deep = addOption(tree, 'o4');
    expect(findNode(deep.tree, deep.key)).toMatchObject({ parentId: 4, option: '1' });
    expect(optionPath(deep.tree, deep.key)).toBe('2.2.1');
  });

  test('a saved new option gives its id to its children as parentId', () => {
    const a = addOption([], null);
    const b = addOption(a.tree, a.key);
    const saved = updateOption(b.tree, a.key, { id: 42, title: 'T' });
    expect(findNode(saved, a.key)).toMatchObject({ id: 42, title: 'T' });
    expect(findNode(saved, b.key)!.parentId).toBe(42);
  });

  test('deleting an option removes its subtree and moves the later siblings up one position', () => {
    const { tree, changed, removed } = removeOption(buildTree(flat), 'o3');
    expect(removed?.id).toBe(3);
    expect(tree[1].children.map((n) => [n.id, n.option])).toEqual([
      [4, '1'],
      [5, '2'],
    ]);
    expect(changed).toEqual([
      { id: 4, option: '1' },
      { id: 5, option: '2' },
    ]);
    const top = removeOption(buildTree(flat), 'o2');
    expect(top.tree.map((n) => n.id)).toEqual([1]);
    expect(findNode(top.tree, 'o4')).toBeUndefined();
  });

  test('reordering swaps two neighbours and their positions; the ends do not move', () => {
    const down = moveOption(buildTree(flat), 'o3', 1);
    expect(down.tree[1].children.map((n) => [n.id, n.option])).toEqual([
      [4, '1'],
      [3, '2'],
      [5, '3'],
    ]);
    expect(down.changed).toEqual([
      { id: 4, option: '1' },
      { id: 3, option: '2' },
    ]);
    expect(moveOption(buildTree(flat), 'o1', -1).changed).toEqual([]);
    expect(moveOption(buildTree(flat), 'o5', 1).changed).toEqual([]);
  });
});
