// The annotator's marks in time on the item on screen (issue 24, item 4): instants and ranges on each
// response's video, with a tag and a note (shared/moments.ts), read from their current judgement of the
// screen's task when the item is shown and saved with it as the first failure is (saveMoments: a new
// revision of the judgement, holding the whole list). Every change is one step back with Ctrl+Z (the
// list as it was is saved again); a change refused (not judged yet, a rule) is taken back and said.
// The item and the task are the screen's, as failureMark.ts finds them. Screens read it through useMoments.
import { useSyncExternalStore } from 'react';
import { momentsSchema, type Moment } from '../../../../shared/moments';
import { api, errorMessage } from '../../api';
import { screenOf } from './failureMark';

/** Tags offered when the project has no error tags of its own (Datasets › step settings names them). */
export const VIDEO_TAGS = ['failure', 'collision', 'slip', 'artifact', 'flicker', 'morphing', 'off-prompt'] as const;

/** One hue per response (its letter says it too), readable on the light and the dark bar. */
const HUES = ['#d97706', '#7c3aed', '#0891b2', '#db2777'];
export const momentHue = (at: number): string => HUES[at % HUES.length]!;

export interface MomentsState {
  /** `${project}\u0000${itemId}\u0000${task}\u0000${annotator}`; '' until an item is shown. */
  key: string;
  marks: Moment[];
  /** The mark the list's keys act on (the last made or opened), or null. */
  selected: number | null;
  /** What the last change came to: 'saved', 'saving…', or why not. */
  status: string | null;
  /** The tags the picker offers: the project's error tags, else VIDEO_TAGS. */
  tags: string[];
  /** How many changes Ctrl+Z can take back on this item. */
  undoable: number;
}

class MomentMarks {
  private listeners = new Set<() => void>();
  private history: Moment[][] = [];
  private target: { project: string; annotator: string; itemId: number; task: 'pairwise' | 'verdict' | 'ranking' } | null = null;
  private tagsOf = new Map<string, string[]>();
  state: MomentsState = { key: '', marks: [], selected: null, status: null, tags: [...VIDEO_TAGS], undoable: 0 };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<MomentsState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Shows the marks of the item `from` is on (its screen's task), read from the annotator's judgement. */
  open(from: Element, project: string, annotator: string): void {
    const screen = screenOf(from);
    if (!screen || !annotator) return;
    const key = [project, screen.itemId, screen.task, annotator].join('\u0000');
    if (key === this.state.key) return;
    this.target = { project, annotator, itemId: screen.itemId, task: screen.task };
    this.history = [];
    this.set({ key, marks: [], selected: null, status: null, undoable: 0 });
    // Asked after the key's frame: opened in a screen's effect, which a key's commit runs at once, and a
    // request costs that frame milliseconds (bench/video-loop.mjs --profile).
    setTimeout(() => {
      if (this.state.key !== key) return;
      void this.loadTags(project);
      api.labelHistory({ project, itemId: screen.itemId }).then(
        (revisions) => {
          if (this.state.key !== key) return;
          const mine = revisions.filter((r) => r.annotator === annotator && r.task === screen.task).at(-1);
          const marks = momentsSchema.safeParse(mine?.body.moments ?? []);
          this.set({ marks: marks.success ? marks.data : [] });
        },
        (error: unknown) => this.state.key === key && this.set({ status: errorMessage(error) }),
      );
    }, 0);
  }

  private async loadTags(project: string) {
    let tags = this.tagsOf.get(project);
    if (!tags) {
      const own = await api.getProject({ project }).then(
        (p) => p.settings.errorTags ?? [],
        () => [],
      );
      tags = own.length ? [...own] : [...VIDEO_TAGS];
      this.tagsOf.set(project, tags);
    }
    this.set({ tags });
  }

  /** The item left the screen. */
  close(): void {
    this.target = null;
    this.history = [];
    this.set({ key: '', marks: [], selected: null, status: null, undoable: 0 });
  }

  private async commit(next: Moment[], selected: number | null, remember = true): Promise<void> {
    const target = this.target;
    if (!target) return;
    const key = this.state.key;
    const before = this.state.marks;
    if (remember) this.history.push(before);
    this.set({ marks: next, selected, status: 'saving…', undoable: this.history.length });
    try {
      const saved = await api.saveMoments({ ...target, moments: next });
      if (this.state.key !== key) return;
      if (saved) return this.set({ status: 'saved' });
      this.takeBack(before, remember, 'judge the item first, then mark (← comes back to it)');
    } catch (error) {
      if (this.state.key === key) this.takeBack(before, remember, errorMessage(error));
    }
  }

  private takeBack(before: Moment[], remembered: boolean, why: string) {
    if (remembered) this.history.pop();
    this.set({ marks: before, selected: before.length ? Math.min(this.state.selected ?? 0, before.length - 1) : null, status: why, undoable: this.history.length });
  }

  /** A new mark on response `at`: an instant at `from`, or a range to `to`; tagged with the last tag used. */
  add(at: number, from: number, to?: number): void {
    const round = (t: number) => Math.round(t * 1000) / 1000;
    const tag = this.state.marks.at(-1)?.tag ?? this.state.tags[0] ?? VIDEO_TAGS[0];
    const mark: Moment = { at, from: round(from), ...(to !== undefined && to > from ? { to: round(to) } : {}), tag };
    const next = [...this.state.marks, mark].sort((a, b) => a.at - b.at || a.from - b.from);
    void this.commit(next, next.indexOf(mark));
  }

  /** Changes mark `index` (its tag or note); an empty note is none. */
  edit(index: number, patch: { tag?: string; note?: string }): void {
    const mark = this.state.marks[index];
    if (!mark) return;
    const tag = patch.tag === undefined ? mark.tag : patch.tag.trim();
    const note = patch.note === undefined ? mark.note : patch.note.trim() || undefined;
    if (!tag || (tag === mark.tag && note === mark.note)) return;
    const { note: _old, ...rest } = mark;
    const next = this.state.marks.map((m, i) => (i === index ? { ...rest, tag, ...(note ? { note } : {}) } : m));
    void this.commit(next, index);
  }

  remove(index: number): void {
    if (!this.state.marks[index]) return;
    const next = this.state.marks.filter((_, i) => i !== index);
    void this.commit(next, next.length ? Math.min(index, next.length - 1) : null);
  }

  /** Says something in the list's status (a key that had nothing to act on). */
  say(status: string): void {
    this.set({ status });
  }

  select(index: number | null): void {
    if (index !== this.state.selected) this.set({ selected: index });
  }

  /** Takes the last change back (saved again); false when there is none on this item. */
  undo(): boolean {
    const before = this.history.pop();
    if (!before) return false;
    void this.commit(before, before.length ? Math.min(this.state.selected ?? 0, before.length - 1) : null, false);
    return true;
  }
}

/** The screen's marks in time. */
export const momentMarks = new MomentMarks();

export function useMoments(): MomentsState {
  return useSyncExternalStore(momentMarks.subscribe, () => momentMarks.state);
}
