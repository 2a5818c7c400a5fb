// What a sync or a join refused of what the hub holds, counted by kind with the first reason, and said
// in sentences (the sync summary's `refused`, the Team panel's notices, the CLI's stderr). The hub is
// untrusted input: a row its checks let through (an older hub, a hand-written INSERT by its owner) is
// checked here by the rules a save or an import follows, and one refused never stops the rest.
import { plural } from '../../../shared/plural';
import { formatBytes, formatLimit, limit, limitEnvName } from '../base/limits';

export type RefusalKind = 'cut' | 'rubricVersion' | 'criteria' | 'settings' | 'tooLarge' | 'line' | 'deferredCap' | 'deferredAge' | 'goldMark' | 'view';

const were = (n: number) => (n === 1 ? 'was' : 'were');

const SAY: Record<RefusalKind, (n: number, first: string) => string> = {
  cut: (n, first) => `${plural(n, 'cut')} of responses into steps on the hub ${were(n)} refused and left out (the first: ${first}).`,
  rubricVersion: (n, first) => `${plural(n, 'rubric version')} on the hub ${were(n)} refused and left out (the first: ${first}).`,
  criteria: (n, first) => `${plural(n, "item's own criteria", "items' own criteria")} on the hub ${were(n)} refused and left out (the first: ${first}).`,
  settings: (_n, first) => `The project's settings on the hub fail this desktop's checks (${first}); the settings and rubric in force here are kept. A lead's sync puts valid ones on the hub.`,
  tooLarge: (n, first) =>
    `${plural(n, 'revision')} on the hub ${were(n)} longer than ${formatBytes(limit('recordMaxBytes'))}, the most a labels line may hold, and ${were(n)} skipped unread (the first: ${first}; ${limitEnvName('recordMaxBytes')} raises the bound).`,
  line: (n, first) => `${plural(n, 'revision')} on the hub ${were(n)} refused (the first: ${first}).`,
  view: (n, first) => `${plural(n, 'saved view')} on the hub ${were(n)} refused and left out (the first: ${first}).`,
  deferredCap: (n, first) =>
    `${plural(n, 'revision')} from the hub that cannot merge here ${were(n)} dropped: ${plural(limit('hubDeferredMax'), 'revision')} wait already, the most kept (${limitEnvName('hubDeferredMax')} raises it; the first dropped: ${first}).`,
  deferredAge: (n, first) =>
    `${plural(n, 'revision')} from the hub that could not merge here waited longer than ${formatLimit('duration', limit('hubDeferredMaxAgeMs'))} and ${were(n)} dropped (the first: ${first}).`,
  goldMark: (n, first) => `${plural(n, 'gold mark')} on the hub ${were(n)} refused and left out (the first: ${first}).`,
};

export class Refusals {
  private readonly kinds = new Map<RefusalKind, { count: number; first: string }>();

  note(kind: RefusalKind, reason: string, count = 1): void {
    if (count <= 0) return;
    const seen = this.kinds.get(kind);
    if (seen) seen.count += count;
    else this.kinds.set(kind, { count, first: reason.replace(/\.$/, '') });
  }

  count(kind: RefusalKind): number {
    return this.kinds.get(kind)?.count ?? 0;
  }

  sentences(): string[] {
    return [...this.kinds].map(([kind, { count, first }]) => SAY[kind](count, first));
  }
}
