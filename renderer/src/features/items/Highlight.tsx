// A search hit in its context: the index's snippet (text with the hit marks of shared/searchText.ts)
// drawn as plain text segments, each hit in a <mark>. Never HTML: the text is model output.
import { HIT_CLOSE, HIT_OPEN } from '../../../../shared/searchText';

export interface Segment {
  text: string;
  hit: boolean;
}

/** A snippet's segments: what lies between HIT_OPEN and HIT_CLOSE is a hit. */
export function snippetSegments(snippet: string): Segment[] {
  const out: Segment[] = [];
  let hit = false;
  let current = '';
  for (const ch of snippet) {
    if (ch === HIT_OPEN || ch === HIT_CLOSE) {
      if (current) out.push({ text: current, hit });
      current = '';
      hit = ch === HIT_OPEN;
    } else current += ch;
  }
  if (current) out.push({ text: current, hit });
  return out;
}

export function Highlight({ segments, testId }: { segments: Segment[]; testId?: string }) {
  return (
    <span data-testid={testId}>
      {segments.map((s, i) =>
        s.hit ? (
          <mark key={i} className="rounded-[2px] bg-[var(--hit)] px-[1px] text-fg" data-testid="hit">
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </span>
  );
}
