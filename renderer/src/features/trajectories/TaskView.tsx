// A trajectory's task beside its turns: the user's request in full, a system prompt (agent boilerplate,
// often pages long) folded to its first lines with its size, and the expected outcome when the item has
// one. Each long part unfolds with a click; the panel stays beside the turns as they scroll.
import { useState } from 'react';
import type { Content, ContentPart } from '../../../../shared/domain';
import { messageContentText } from '../../../../shared/trajectory';
import { Markdown } from '../../components/Markdown';
import { foldedHead, lineCount, sizeWords, utf8Bytes } from './turnModel';

function Part({ role, text, foldAt }: { role: string; text: string; foldAt: number }) {
  const [open, setOpen] = useState(false);
  const lines = lineCount(text);
  const long = lines > foldAt + 1 || text.length > foldAt * 110;
  const shown = long && !open ? foldedHead(text, foldAt) : text;
  return (
    <div className="flex flex-col gap-0.5" data-testid="task-part" data-role={role} data-folded={long && !open}>
      <div className="text-[11px] font-semibold tracking-wide text-faint uppercase">{role}</div>
      {long && !open && role === 'system' ? (
        // A folded system prompt: its first lines as plain text, three lines at most, cut at a line's end.
        <p className="line-clamp-3 text-[13px] whitespace-pre-line text-muted">{shown}</p>
      ) : (
        <Markdown text={shown} className={role === 'system' ? 'text-[13px] text-muted' : 'text-[15px]'} />
      )}
      {long && (
        <button type="button" className="self-start text-[11.5px] text-muted hover:text-fg" onClick={() => setOpen((v) => !v)} data-testid="task-fold">
          {open ? '▾ fold' : `▸ show all · ${sizeWords(utf8Bytes(text), lines)}`}
        </button>
      )}
    </div>
  );
}

export function TaskView({ prompt }: { prompt: Content }) {
  if (typeof prompt === 'string') return <Part role="user" text={prompt} foldAt={40} />;
  return (
    <div className="flex flex-col gap-2.5">
      {prompt.map((m, i) => (
        <Part key={i} role={m.role} text={messageContentText(m.content as string | ContentPart[] | null)} foldAt={m.role === 'system' ? 3 : 40} />
      ))}
    </div>
  );
}
