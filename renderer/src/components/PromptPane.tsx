// The prompt, pinned above the responses. A long one folds (key f). A chat folds its earlier turns into
// one line and keeps the last user turn, the question being answered, always in view; plain text folds
// to its first lines.
import { memo, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import type { ChatMessage, Content } from '../../../shared/domain';
import { contentText } from '../../../shared/choices';
import { imagesOf } from '../../../shared/images';
import { videosOf } from '../../../shared/videos';
import { flushSync } from 'react-dom';
import { ContentView } from './ContentView';
import { Kbd } from './Kbd';

/** Taller than this (px), the prompt folds. */
const FOLD_ABOVE = 150;

/** A chat split before its last user turn; null when there is nothing before it to fold. */
function splitAtLastUserTurn(prompt: Content): { earlier: ChatMessage[]; last: ChatMessage[] } | null {
  if (typeof prompt === 'string') return null;
  const at = prompt.findLastIndex((m) => m.role === 'user');
  if (at <= 0) return null;
  return { earlier: prompt.slice(0, at), last: prompt.slice(at) };
}

/**
 * Whether the content inside these boxes is taller than the fold, measured now and on every resize. `wanted`
 * false: not asked (a prompt that never folds), so the key's commit does not lay the page out to read a height.
 */
function useOverflows(boxes: RefObject<HTMLDivElement | null>[], key: unknown, wanted = true): boolean {
  const [overflows, setOverflows] = useState(false);
  const known = useRef(false);
  useLayoutEffect(() => {
    if (!wanted) return;
    const els = boxes.map((b) => b.current).filter((el): el is HTMLDivElement => el !== null);
    if (!els.length) return;
    // scrollHeight counts content a folded box clips, so the measure holds folded or not. Set only when it
    // changes: a state set to what it holds can still render the prompt again, a commit of its own in the
    // key's frame (compare-commits). Measured when the observer first reports, after the frame's own layout
    // and before its paint, not here: reading a height in the commit laid the page out an extra time each key
    // (bench/video-loop.mjs --profile: ~4 ms with a pair of videos). flushSync: the fold is in that paint.
    const measure = () => {
      const now = els.reduce((sum, el) => sum + el.scrollHeight, 0) > FOLD_ABOVE;
      if (now === known.current) return;
      known.current = now;
      flushSync(() => setOverflows(now));
    };
    const observer = new ResizeObserver(measure);
    // The content too: a folded box keeps its size while what it clips grows (math, late fonts).
    for (const el of els) for (const watched of [el, el.firstElementChild]) if (watched) observer.observe(watched);
    return () => observer.disconnect();
    // The boxes are refs that stay the same; the content (key) is what changes their height.
  }, [key, wanted]);
  return wanted && overflows;
}

/**
 * `extra`: under the prompt, in its column (a tool-calling pair's tools). Memoised: a screen that keeps its
 * props the same (Compare) does not draw the prompt again for a save's answer.
 */
export const PromptPane = memo(function PromptPane({ prompt, folded, onToggle, extra }: { prompt: Content; folded: boolean; onToggle(): void; extra?: ReactNode }) {
  const text = contentText(prompt);
  const chat = splitAtLastUserTurn(prompt);
  return (
    // Images in the prompt stay within a third of the window, so the responses keep their room; a video
    // within a fifth, so its transport bar and the question after it stay in view too (z zooms it).
    <section
      className="shrink-0 border-b border-line bg-surface [--image-max-h:30vh]"
      style={videosOf(prompt).length ? ({ '--image-max-h': '20vh' } as CSSProperties) : undefined}
      data-testid="prompt"
      data-fold={chat ? 'chat' : 'text'}
    >
      <div className="mx-auto flex max-w-[1800px] gap-3 px-4 pt-2.5 pb-3">
        <div className="w-16 shrink-0 pt-0.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Prompt</div>
        <div className="relative min-w-0 flex-1">
          {chat ? (
            <ChatPrompt earlier={chat.earlier} last={chat.last} folded={folded} onToggle={onToggle} text={text} />
          ) : (
            <TextPrompt prompt={prompt} folded={folded} onToggle={onToggle} text={text} />
          )}
          {extra && <div className="mt-1.5">{extra}</div>}
        </div>
      </div>
    </section>
  );
});

function TextPrompt({ prompt, folded, onToggle, text }: { prompt: Content; folded: boolean; onToggle(): void; text: string }) {
  const body = useRef<HTMLDivElement>(null);
  // A prompt with an image or a video never folds (folding would hide what the question is about, and a
  // video's transport bar under it): it scrolls.
  const video = videosOf(prompt).length > 0;
  const overflows = useOverflows([body], text, imagesOf(prompt, 'prompt').length === 0 && !video);
  return (
    <>
      <div
        // A video's transport bar and filmstrip sit under it: its prompt may take more height, so the question after it shows.
        className={`overflow-hidden ${folded && overflows ? 'max-h-[132px]' : video ? 'max-h-[60vh] overflow-y-auto' : 'max-h-[38vh] overflow-y-auto'}`}
        style={folded && overflows ? { maskImage: 'linear-gradient(to bottom, black 60%, transparent)' } : undefined}
      >
        <div ref={body} data-testid="prompt-body">
          <ContentView content={prompt} />
        </div>
      </div>
      {overflows && (
        <FoldButton onToggle={onToggle}>
          {folded ? `Show the whole prompt (${text.length.toLocaleString()} characters)` : 'Fold the prompt'}
        </FoldButton>
      )}
    </>
  );
}

function ChatPrompt(props: { earlier: ChatMessage[]; last: ChatMessage[]; folded: boolean; onToggle(): void; text: string }) {
  const { earlier, last, onToggle, text } = props;
  const earlierBox = useRef<HTMLDivElement>(null);
  const lastBox = useRef<HTMLDivElement>(null);
  const overflows = useOverflows([earlierBox, lastBox], text);
  const folded = props.folded && overflows;
  const earlierText = contentText(earlier);
  const turns = `${earlier.length} earlier ${earlier.length === 1 ? 'message' : 'messages'}`;
  return (
    <>
      <div className={folded ? '' : 'max-h-[38vh] overflow-y-auto'} data-testid="prompt-body">
        {folded && (
          <button
            className="mb-2 flex w-full min-w-0 items-baseline gap-2 rounded border border-dashed border-line-strong px-2 py-1 text-left text-[12.5px] text-muted hover:text-fg"
            onClick={onToggle}
            title="Show the earlier turns of the conversation (f)"
            data-testid="prompt-earlier-folded"
          >
            <span className="shrink-0 font-medium">▸ {turns}</span>
            <span className="min-w-0 truncate text-faint">{earlierText.replace(/\s+/g, ' ')}</span>
          </button>
        )}
        {/* Folded, the earlier turns stay rendered but take no room, so their height is still known. */}
        <div ref={earlierBox} className={folded ? 'max-h-0 overflow-hidden' : 'mb-3'} inert={folded} aria-hidden={folded} data-testid="prompt-earlier">
          <ContentView content={earlier} />
        </div>
        <div ref={lastBox} className={folded ? 'max-h-[38vh] overflow-y-auto' : ''} data-testid="prompt-last-turn">
          <ContentView content={last} />
        </div>
      </div>
      {overflows && (
        <FoldButton onToggle={onToggle}>
          {folded ? `Show the ${turns} (${earlierText.length.toLocaleString()} characters)` : 'Fold the earlier messages'}
        </FoldButton>
      )}
    </>
  );
}

function FoldButton({ onToggle, children }: { onToggle(): void; children: ReactNode }) {
  return (
    <button className="mt-1 flex items-center gap-1.5 text-[12px] text-muted hover:text-fg" onClick={onToggle} data-testid="prompt-fold">
      {children} <Kbd>f</Kbd>
    </button>
  );
}
