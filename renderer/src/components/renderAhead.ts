// Work kept off the path from a key to the next item on screen, shared by the screens that prefetch the
// next item (Compare, Steps): rendering its Markdown ahead while the annotator reads, and running what can
// wait until the item is painted.
import { prepareMarkdown } from './Markdown';

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
