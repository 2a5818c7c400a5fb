// The tools a trajectory was given, folded to one line of their names; unfolded, each tool's schema as
// pretty JSON. Shown beside the task on the step screen and under the prompt on Compare, so the
// arguments a call passed can be read against what the tool takes.
import { useMemo, useState } from 'react';
import { prettyJson } from './turnModel';
import { toolName } from './tools';

const MAX_CHARS = 60_000;

export function ToolsSchema({ tools, label = 'Tools' }: { tools: unknown[]; label?: string }) {
  const [open, setOpen] = useState(false);
  const names = tools.map(toolName);
  const text = useMemo(() => {
    if (!open) return '';
    const all = tools.map((t) => prettyJson(t)).join('\n\n');
    return all.length > MAX_CHARS ? `${all.slice(0, MAX_CHARS)}\n… ${(all.length - MAX_CHARS).toLocaleString()} more characters` : all;
  }, [open, tools]);
  return (
    <div className="min-w-0 text-[12.5px]" data-testid="tools-schema" data-open={open}>
      <button
        type="button"
        className="flex w-full min-w-0 items-baseline gap-2 text-left text-muted hover:text-fg"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        data-testid="tools-toggle"
      >
        <span className="shrink-0 font-medium">
          {open ? '▾' : '▸'} {label} · {tools.length}
        </span>
        <span className="min-w-0 truncate font-mono text-faint">{names.join(', ')}</span>
      </button>
      {open && (
        <pre className="mt-1 max-h-[40vh] overflow-auto rounded-md border border-line bg-bg px-2.5 py-1.5 font-mono text-[12px] leading-[1.45] whitespace-pre" data-testid="tools-json">
          {text}
        </pre>
      )}
    </div>
  );
}

/** A pair's tools on Compare: once when both runs were given the same, else each side's; null when neither had any. */
export function PairTools({ left, right }: { left: unknown[] | null; right: unknown[] | null }) {
  const same = useMemo(() => JSON.stringify(left) === JSON.stringify(right), [left, right]);
  if (!left && !right) return null;
  if (same) return <ToolsSchema tools={left!} />;
  return (
    <div className="flex flex-col gap-1">
      {left && <ToolsSchema tools={left} label="Left’s tools" />}
      {right && <ToolsSchema tools={right} label="Right’s tools" />}
    </div>
  );
}
