import { describe, it, expect } from 'vitest';
import { groupByLane, laneOf, movedTags, tagIdOfLane, UNTAGGED_LANE } from './board';

const vip = { id: 1, name: 'VIP', color: '#111' };
const late = { id: 2, name: 'Late', color: '#222' };
const note = { id: 3, name: 'Note', color: '#333' };

describe('kanban board rules', () => {
  it('a ticket without a kanban tag sits in the untagged lane; one with a lane tag in that lane', () => {
    expect(laneOf({ tags: [note] }, [1, 2])).toBe(UNTAGGED_LANE);
    expect(laneOf({ tags: [note, late] }, [1, 2])).toBe('tag-2');
    expect(tagIdOfLane('tag-2')).toBe(2);
    expect(tagIdOfLane(UNTAGGED_LANE)).toBeNull();
  });

  it('a move removes the current kanban tag, then adds the target; other tags stay', () => {
    expect(movedTags({ tags: [note, vip] }, [1, 2], late)).toEqual([note, late]);
    expect(movedTags({ tags: [vip] }, [1, 2], null)).toEqual([]);
    expect(movedTags({ tags: [] }, [1, 2], vip)).toEqual([vip]);
  });

  it('groups tickets by lane, untagged first', () => {
    const lanes = groupByLane(
      [
        { id: 10, tags: [vip] },
        { id: 11, tags: [] },
        { id: 12, tags: [late, note] },
      ],
      [1, 2],
    );
    expect([...lanes.keys()]).toEqual([UNTAGGED_LANE, 'tag-1', 'tag-2']);
    expect(lanes.get('tag-1')!.map((t) => t.id)).toEqual([10]);
    expect(lanes.get(UNTAGGED_LANE)!.map((t) => t.id)).toEqual([11]);
  });
});
