// The blocks a turn card is made of: highlighted JSON, a terminal block, a red / green diff, and a long
// text folded to its first lines with its size. Everything is React text: model output never becomes HTML.
import { diffLines, parsePatch } from 'diff';
import { memo, type ReactNode } from 'react';
import { ansiSegments } from './ansi';
import { foldedHead, isLong, lineCount, sizeWords, utf8Bytes, type Edit } from './turnModel';

const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Pretty JSON with keys, strings, numbers and literals coloured (as spans of text). */
export const JsonText = memo(function JsonText({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of text.matchAll(JSON_TOKEN)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) {
      out.push(
        <span key={k++} className={m[2] ? 'text-side-l' : 'text-ok'}>
          {m[1]}
        </span>,
      );
      if (m[2]) out.push(m[2]);
    } else if (m[3] !== undefined)
      out.push(
        <span key={k++} className="text-side-r">
          {m[3]}
        </span>,
      );
    else
      out.push(
        <span key={k++} className="text-accent">
          {m[4]}
        </span>,
      );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
});

/** Terminal output: ANSI colours rendered as classes, other escapes dropped. */
export const TerminalText = memo(function TerminalText({ text }: { text: string }) {
  const segments = ansiSegments(text);
  if (segments.length === 1 && !segments[0]!.cls && !segments[0]!.bold) return <>{segments[0]!.text}</>;
  return (
    <>
      {segments.map((s, i) => (
        <span key={i} className={`${s.cls} ${s.bold ? 'font-bold' : ''}`}>
          {s.text}
        </span>
      ))}
    </>
  );
});

interface FoldProps {
  text: string;
  /** Shown whole (the turn unfolded by `x` or a click). */
  open: boolean;
  onToggle?: () => void;
  render: (text: string) => ReactNode;
  className: string;
  /** What the fold line says the key is. */
  keyHint?: string;
  testid?: string;
  /** Bytes and lines, when already counted. */
  size?: { bytes: number; lines: number };
}

/**
 * A text that folds past a few lines: only its head is rendered while folded (a 2 MB result costs a few
 * lines of DOM), with its size and how to unfold it.
 */
export function Folded({ text, open, onToggle, render, className, keyHint = 'x', testid, size }: FoldProps) {
  const lines = size?.lines ?? lineCount(text);
  const long = isLong(text, lines);
  const folded = long && !open;
  const shown = folded ? foldedHead(text) : text;
  return (
    <div data-testid={testid} data-folded={folded} data-long={long}>
      <pre className={className}>{render(shown)}</pre>
      {long && (
        <button
          type="button"
          className="mt-0.5 flex w-full items-center gap-2 rounded-b px-2 py-0.5 text-left text-[11.5px] text-muted hover:bg-surface-2 hover:text-fg"
          onClick={(e) => {
            e.stopPropagation();
            onToggle?.();
          }}
          onMouseDown={(e) => e.stopPropagation()}
          data-testid="fold-toggle"
        >
          <span aria-hidden>{folded ? '▸' : '▾'}</span>
          <span className="tabular-nums" data-testid="fold-size">
            {sizeWords(size?.bytes ?? utf8Bytes(text), lines)}
          </span>
          <span className="text-faint">
            {folded ? `· ${(lines - lineCount(shown)).toLocaleString('en-US')} more lines folded` : '· shown whole'} · <kbd className="font-mono">{keyHint}</kbd>{' '}
            {folded ? 'unfolds' : 'folds'}
          </span>
        </button>
      )}
    </div>
  );
}

type DiffLine = { sign: '+' | '-' | ' ' | '@'; text: string };

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** An edit as diff lines: old → new by jsdiff, a patch as it is written, new text all added. */
export function diffOf(edit: Edit): DiffLine[] {
  if (edit.kind === 'replace') {
    const out: DiffLine[] = [];
    for (const part of diffLines(edit.before, edit.after)) {
      const sign = part.added ? '+' : part.removed ? '-' : ' ';
      for (const line of linesOf(part.value)) out.push({ sign, text: line });
    }
    return out;
  }
  if (edit.kind === 'patch') {
    const out: DiffLine[] = [];
    let parsed: ReturnType<typeof parsePatch> | null = null;
    try {
      parsed = parsePatch(edit.text);
    } catch {
      parsed = null;
    }
    if (parsed && parsed.some((p) => p.hunks.length)) {
      for (const file of parsed) {
        if (parsed.length > 1 || file.newFileName) out.push({ sign: '@', text: `${file.oldFileName ?? ''} → ${file.newFileName ?? ''}`.replace(/^ → $/, '') });
        for (const h of file.hunks) {
          out.push({ sign: '@', text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` });
          for (const line of h.lines) out.push({ sign: (line[0] === '+' || line[0] === '-' ? line[0] : ' ') as DiffLine['sign'], text: line.slice(1) });
        }
      }
      return out;
    }
    return linesOf(edit.text).map((line) => ({ sign: line.startsWith('+') && !line.startsWith('+++') ? '+' : line.startsWith('-') && !line.startsWith('---') ? '-' : line.startsWith('@@') ? '@' : ' ', text: line }));
  }
  return linesOf(edit.text).map((text) => ({ sign: '+', text }));
}

/**
 * Lines added and removed: an edit of a line range removes the lines it replaces (`edit 11:11` of one line
 * by one line is +1 −1), though their old text is not in the trajectory to show.
 */
export function diffCounts(edit: Edit, lines: DiffLine[] = diffOf(edit)): { added: number; removed: number } {
  const added = lines.filter((l) => l.sign === '+').length;
  const removed = edit.kind === 'lines' && edit.replaced !== null ? edit.replaced : lines.filter((l) => l.sign === '-').length;
  return { added, removed };
}

const DIFF_LIMIT = 400;

/** A code edit as red / green lines, each with a sign as well as a colour. */
export const EditDiff = memo(function EditDiff({ edit, open }: { edit: Edit; open: boolean }) {
  const lines = diffOf(edit);
  const { added, removed } = diffCounts(edit, lines);
  const shown = open ? lines : lines.slice(0, DIFF_LIMIT);
  const where = edit.kind === 'lines' && edit.range ? edit.range : edit.kind === 'create' ? 'new file' : null;
  return (
    <div className="overflow-hidden rounded-md border border-line" data-testid="edit-diff">
      <div className="flex items-center gap-2 border-b border-line bg-surface-2 px-2 py-0.5 text-[12px]">
        <span aria-hidden className="font-mono font-semibold text-accent">
          ±
        </span>
        <span className="min-w-0 truncate font-mono text-fg">{edit.path ?? 'edit'}</span>
        {where && <span className="text-faint">{where}</span>}
        <span className="ml-auto tabular-nums">
          <span className="text-ok" data-testid="diff-added">
            +{added}
          </span>{' '}
          <span className="text-bad" data-testid="diff-removed">
            −{removed}
          </span>
        </span>
      </div>
      <pre className="overflow-x-auto py-1 font-mono text-[12.5px] leading-[1.5]">
        {shown.map((l, i) => (
          <div
            key={i}
            className={l.sign === '+' ? 'bg-ok/20 text-fg' : l.sign === '-' ? 'bg-bad/15 text-fg' : l.sign === '@' ? 'text-faint' : 'text-muted'}
            data-testid={l.sign === '+' ? 'diff-line-added' : l.sign === '-' ? 'diff-line-removed' : undefined}
          >
            <span className={`inline-block w-5 pl-1.5 select-none ${l.sign === '+' ? 'text-ok' : l.sign === '-' ? 'text-bad' : 'text-faint'}`} aria-hidden>
              {l.sign === '-' ? '−' : l.sign === '@' ? '' : l.sign}
            </span>
            {l.text || ' '}
          </div>
        ))}
        {shown.length < lines.length && <div className="px-2 text-faint">… {(lines.length - shown.length).toLocaleString('en-US')} more lines (x shows all)</div>}
      </pre>
    </div>
  );
});
