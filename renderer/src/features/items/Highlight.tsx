// A search hit in its context: the index's snippet, runs of plain text, drawn with each hit in a <mark>.
// Never HTML: the text is model output, and React writes it as text.

export interface Segment {
  text: string;
  hit: boolean;
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
