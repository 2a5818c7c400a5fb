// The step screen's status line on a trajectory says "turn", as the screen does (issue 20, item 21: rating
// turn 5 said "Step 5 rated +1").
import { describe, expect, it, vi } from 'vitest';
import { emptyJudgement, type Edit } from '../../../renderer/src/features/steps/judgement';
import { stepActions } from '../../../renderer/src/features/steps/stepActions';

function actionsOn(turns: boolean) {
  let judgement = emptyJudgement(1, 6);
  const said: string[] = [];
  const apply = vi.fn((edit: Edit | null) => {
    if (!edit) return false;
    if ('refused' in edit) said.push(edit.refused);
    else {
      said.push(edit.words);
      judgement = edit.judgement;
    }
    return !('refused' in edit);
  });
  const s = { loaded: { item: { position: 1 }, view: { tags: [] } }, apply, latest: () => judgement, say: vi.fn(), phase: 'ready', judgement, segmentation: {} };
  const place = { cursorRef: { current: 4 }, setCursor: vi.fn(), uiRef: { current: { mode: 'keys' } }, setUi: vi.fn() };
  const actions = stepActions({
    s: s as never,
    place: place as never,
    steps: ['a', 'b', 'c', 'd', 'e', 'f'],
    visible: false,
    suggestion: null as never,
    noSuggestion: '',
    scroller: { current: null },
    backToCompare: null,
    toggleSource: () => undefined,
    turns: turns ? Array.from({ length: 6 }, () => ({ calls: [], agent: null })) : null,
  });
  return { actions, said };
}

describe('the status line of the step screen', () => {
  it('says turn on a trajectory and step on a chain', () => {
    const trajectory = actionsOn(true);
    trajectory.actions.rate(1);
    trajectory.actions.firstError();
    expect(trajectory.said).toEqual(['Turn 5 rated +1', 'First error: turn 5 (the 1 after it need no rating)']);
    const chain = actionsOn(false);
    chain.actions.rate(1);
    expect(chain.said).toEqual(['Step 5 rated +1']);
  });
});
