// Work kept off the path from a key to the next item on screen: rendering the prefetched item's text
// ahead while the annotator reads (so showing it costs no Markdown or KaTeX), and what can wait until the
// item is painted (writing the address).
import type { ItemView, StepsView } from '../../../../shared/api';
import { messageText } from '../../../../shared/choices';
import { headingsAsText, prepareMarkdown } from '../../components/Markdown';
import { isTrajectory } from '../../../../shared/trajectory';
import { trajectoryView } from '../trajectories/turnModel';

/** Runs `run` after the next frame is painted; the answer cancels it. */
export function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** The texts the step screen renders as Markdown for an item opened on `response`. */
export function itemTexts({ item, view }: { item: ItemView; view: StepsView }, response = 0): string[] {
  // Steps render with their `#` lines as text (StepList), so they are prepared that way. A trajectory's
  // turns render as cards: its turns are worked out now (kept for the screen) and the agent's own words
  // are what is markdown.
  const content = item.responses[response]?.content;
  const turns = content !== undefined && isTrajectory(content) ? trajectoryView(content).turns : null;
  const texts = turns ? turns.flatMap((t) => [t.said, ...t.context.map((c) => c.text)]).filter((t) => t.trim()).map(headingsAsText) : (view.responses[response]?.steps ?? []).map(headingsAsText);
  if (typeof item.prompt === 'string') texts.push(item.prompt);
  else for (const message of item.prompt) texts.push(messageText(message.content));
  if (item.reference !== null) texts.push(item.reference);
  return texts;
}

/**
 * Renders the texts' Markdown ahead, a few milliseconds at a time with the page free in between (a key
 * pressed meanwhile waits for one slice at most); the answer cancels what is left. Not requestIdleCallback:
 * Chromium can leave it waiting for hundreds of milliseconds, longer than an annotator reads.
 */
export function prepareAhead(texts: string[]): () => void {
  const left = [...texts];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slice = () => {
    const until = performance.now() + 4;
    do {
      try {
        prepareMarkdown(left.shift()!);
      } catch {
        // Rendered on screen it fails the way it always has; ahead of time it is only skipped.
      }
    } while (left.length && performance.now() < until);
    timer = left.length ? setTimeout(slice, 0) : undefined;
  };
  if (left.length) timer = setTimeout(slice, 0);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
