// What the step screen's keys (and its buttons) do, built once per render from the screen's state.
// Edits are made on the newest judgement (`latest`), so keys pressed faster than the screen draws still
// build on each other.
import { scrollByPage } from '../../components/keys';
import { cycleFinishReason, cycleOutcome, cycleReferenceMatch, cycleToolVerdict, fromModel, inTurns, isAfterError, rate, setSeverity, SEVERITIES, toggleAttribution, toggleFirstError, toggleTag, type Judgement } from './judgement';
import { agentsOf, type TurnInfo } from './TurnJudging';
import type { suggestedJudgement } from './modelSteps';
import { initialPoint, movePoint, splitPoints } from './splitPoints';
import type { StepActions } from './stepKeys';
import { shownTags } from './tagFilter';
import type { useStepCursor } from './useStepCursor';
import type { useSteps } from './useSteps';

export interface ActionContext {
  s: ReturnType<typeof useSteps>;
  place: ReturnType<typeof useStepCursor>;
  steps: string[];
  /** Whether model scores are in view now (recorded with each save). */
  visible: boolean;
  suggestion: ReturnType<typeof suggestedJudgement>;
  /** Why `a` has nothing to accept, in words (blind, or no process model), when it has not. */
  noSuggestion: string;
  scroller: { current: HTMLDivElement | null };
  backToCompare: (() => void) | null;
  toggleSource: () => void;
  /** A trajectory's current turn unfolded or folded again (`x`); absent for a chain. */
  toggleFold?: (index: number) => void;
  /** A trajectory's turns (tool calls, agents) while its steps are its turns; null for a chain. */
  turns?: TurnInfo[] | null;
}

export function stepActions({ s, place, steps, visible, suggestion, noSuggestion, scroller, backToCompare, toggleSource, toggleFold, turns = null }: ActionContext): StepActions {
  const { cursorRef, setCursor, uiRef, setUi } = place;
  const item = s.loaded?.item ?? null;
  // A trajectory's steps are its turns: the status line says "turn", as the screen does.
  const edit: typeof s.apply = (e, ...rest) => s.apply(turns ? inTurns(e) : e, ...rest);
  const latest = (): Judgement | null => s.latest();
  // Items can be walked once the first one has loaded (or every item turned out to be labeled).
  const walkable = s.phase === 'ready' || s.phase === 'done';
  const allTags = () => s.loaded?.view.tags ?? [];
  const shown = () => shownTags(allTags(), uiRef.current.tagFilter);
  const info = (text: string) => s.say({ text, itemNumber: item ? item.position : null, state: 'info' });
  return {
    get mode() {
      return uiRef.current.mode;
    },
    ready: Boolean(item && s.judgement && s.segmentation),
    move: (delta) => setCursor(cursorRef.current + delta),
    moveTo: (where) => setCursor(where === 'first' ? 0 : steps.length - 1),
    rate: (r) => {
      const now = latest();
      if (!now) return;
      const e = rate(now, cursorRef.current, r);
      if (!edit(e, visible) || !('judgement' in e)) return;
      const next = cursorRef.current + 1;
      if (next < steps.length && !isAfterError(e.judgement, next)) setCursor(next);
    },
    firstError: () => {
      const now = latest();
      if (now) edit(toggleFirstError(now, cursorRef.current), visible);
    },
    openTags: () => setUi({ mode: 'tags', tagHighlight: 0, tagFilter: '' }),
    openCorrection: () => setUi({ mode: 'correct' }),
    outcome: () => {
      const now = latest();
      // Cycled on screen; saved once the key rests (one revision for the decision).
      if (now) s.apply(cycleOutcome(now, turns !== null), visible, false, true);
    },
    verdict: (call) => {
      const now = latest();
      if (!turns || !now) return false;
      const index = cursorRef.current;
      const calls = turns[index]?.calls ?? [];
      const target = calls[call];
      if (!target) {
        info(calls.length ? `Turn ${index + 1} makes ${calls.length === 1 ? '1 tool call' : `${calls.length} tool calls`}: there is no call ${call + 1}` : `Turn ${index + 1} makes no tool call: nothing for ${call + 1} to judge`);
        return true;
      }
      edit(cycleToolVerdict(now, index, target.key, calls.length > 1 ? `call ${call + 1} (${target.name})` : target.name), visible);
      return true;
    },
    attribution: () => {
      const now = latest();
      if (!turns || !now) return false;
      const agents = agentsOf(turns);
      if (agents.length < 2) {
        info(agents.length ? `Only ${agents[0]} acts in this trajectory: its first error (f) says when it failed` : 'This trajectory names no agents: its first error (f) says when it failed');
        return true;
      }
      const index = cursorRef.current;
      edit(toggleAttribution(now, index, turns[index]?.agent ?? null), visible);
      return true;
    },
    finish: () => {
      const now = latest();
      if (now) edit(cycleFinishReason(now), visible);
    },
    reference: () => {
      const now = latest();
      if (!now || !item || item.reference === null) return false;
      edit(cycleReferenceMatch(now), visible);
      return true;
    },
    source: toggleSource,
    unfold: () => {
      if (!toggleFold) return false;
      toggleFold(cursorRef.current);
      return true;
    },
    startSplit: () => {
      // A trajectory's steps are its agent turns (their ids tie labels, scores and exports to the file).
      if (turns) return info("A trajectory's steps are its turns: a turn cannot be split");
      const text = steps[cursorRef.current] ?? '';
      const start = initialPoint(text, splitPoints(text));
      if (start === null) info(`Step ${cursorRef.current + 1} is a single word: there is nowhere to split it`);
      else setUi({ mode: 'split', splitAt: start });
    },
    merge: () => {
      if (turns) return info("A trajectory's steps are its turns: two turns cannot be merged");
      const index = cursorRef.current;
      if (index + 1 >= steps.length) info(`Step ${index + 1} is the last: there is no next step to merge it with`);
      else void s.resegment('merge', index);
    },
    accept: () => {
      const now = latest();
      if (!now) return false;
      if (!suggestion) {
        info(noSuggestion);
        return true;
      }
      const taken = fromModel(now, suggestion.ratings, suggestion.firstError);
      const words = suggestion.firstError === null ? 'Took the model’s ratings: no error' : `Took the model’s ratings: first error step ${suggestion.firstError + 1}`;
      edit({ judgement: taken, words }, true);
      if (suggestion.firstError !== null) setCursor(suggestion.firstError);
      return true;
    },
    undo: () => {
      const before = latest();
      s.undo(visible);
      const after = latest();
      // The cursor goes to the step the undo changed back, so the annotator sees what it did.
      const changed = before && after && before !== after ? after.ratings.findIndex((r, i) => r !== before.ratings[i]) : -1;
      if (changed >= 0) setCursor(changed);
    },
    next: (unlabeledOnly) => {
      if (!walkable) return;
      void s.go('next', unlabeledOnly).then((r) => r === 'none' && info(unlabeledOnly ? 'No later item is without your step labels' : 'This is the last item'));
    },
    previous: () => {
      if (walkable) void s.go('previous').then((r) => r === 'none' && info('This is the first item'));
    },
    switchResponse: s.switchResponse,
    back: () => {
      if (!backToCompare) return false;
      backToCompare();
      return true;
    },
    page: (direction) => scroller.current && scrollByPage(scroller.current, direction),
    tags: {
      move: (delta) => {
        const count = shown().length;
        if (count) setUi({ tagHighlight: (uiRef.current.tagHighlight + delta + count) % count });
      },
      toggle: (index) => {
        const tag = shown()[index ?? uiRef.current.tagHighlight];
        const now = latest();
        if (!tag || !now) return;
        const e = toggleTag(now, cursorRef.current, tag);
        edit(e, visible);
        // On a trajectory turn, a tag just applied is followed by how bad it is (1 / 2 / 3).
        const on = 'judgement' in e && (e.judgement.tags[String(cursorRef.current)] ?? []).includes(tag);
        // The filter has done its work: the whole list again, on the tag just picked.
        setUi({ tagFilter: '', tagHighlight: Math.max(0, allTags().indexOf(tag)), askSeverity: turns !== null && on });
      },
      type: (char) => {
        const filter = uiRef.current.tagFilter;
        // A space before anything is typed toggles (as it always has); after letters it is part of a name.
        if (char === ' ' && !filter) return false;
        setUi({ tagFilter: (filter + char).slice(0, 60), tagHighlight: 0 });
        return true;
      },
      erase: () => setUi({ tagFilter: uiRef.current.tagFilter.slice(0, -1), tagHighlight: 0 }),
      clearFilter: () => {
        if (!uiRef.current.tagFilter) return false;
        setUi({ tagFilter: '', tagHighlight: 0 });
        return true;
      },
      close: () => setUi({ mode: 'keys', askSeverity: false, tagFilter: '' }),
      get asking() {
        return uiRef.current.askSeverity;
      },
      severity: (level) => {
        const now = latest();
        if (now) edit(setSeverity(now, cursorRef.current, SEVERITIES[level]), visible);
        setUi({ mode: 'keys', askSeverity: false });
      },
      skipSeverity: () => setUi({ askSeverity: false }),
    },
    split: {
      move: (unit, direction) => {
        const from = uiRef.current.splitAt;
        if (from === null) return;
        const points = splitPoints(steps[cursorRef.current] ?? '');
        const list = unit === 'sentence' && points.sentences.length ? points.sentences : points.words;
        const next = unit === 'end' ? (direction > 0 ? list[list.length - 1] : list[0]) : movePoint(list, from, direction);
        if (next !== undefined) setUi({ splitAt: next });
      },
      apply: () => {
        const splitAt = uiRef.current.splitAt;
        if (splitAt === null || s.busy) return;
        void s.resegment('split', cursorRef.current, splitAt).then((ok) => ok && setUi({ mode: 'keys', splitAt: null }));
      },
      cancel: () => setUi({ mode: 'keys', splitAt: null }),
    },
  };
}
