// Safe markdown for untrusted model text. Raw HTML is never parsed (react-markdown turns it into
// plain text without rehype-raw), links never navigate (rendered as spans with the target in a
// title), and images are never fetched (their alt text is shown instead).
import { memo, type ComponentProps, type ReactElement } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import rehypeHighlight, { type Options as HighlightOptions } from 'rehype-highlight';
import { remarkCurrency } from './currencyMath';

type Extra = { node?: unknown };

const components: Components = {
  a: ({ href, children }: ComponentProps<'a'> & Extra) => (
    <span className="md-link" title={`Link (not opened): ${href || 'no address'}`} data-href={href ?? ''}>
      {children}
    </span>
  ),
  img: ({ alt, src }: ComponentProps<'img'> & Extra) => (
    <span className="md-image" title={typeof src === 'string' && src ? `Image not loaded: ${src}` : undefined}>
      [image{alt ? `: ${alt}` : ''}]
    </span>
  ),
};

// Line breaks are kept as the model wrote them: poems, addresses and step lists read as lines, the way
// chat interfaces show model output, rather than collapsing into one paragraph. Money ("$0.75 ÷ 3 =
// $0.25") is text, not inline math (currencyMath.ts).
const remarkPlugins = [remarkGfm, remarkMath, remarkCurrency, remarkBreaks];
// URLs are only ever shown as text (a title), never followed or fetched, so they are kept as written:
// the annotator can see that a response links to javascript: or to a tracker.
const keepUrl = (url: string) => url;
// react-markdown makes a new processor on every render, and rehype-highlight builds a highlighter with
// its ~37 languages each time it is attached: far more than the text costs. The options never change,
// so the highlighter is built once.
let highlighter: ReturnType<typeof rehypeHighlight> | undefined;
const rehypeHighlightOnce = (options: HighlightOptions) => (highlighter ??= rehypeHighlight(options));
// KaTeX errors render in red instead of throwing; highlighting only where a language is named
// (auto-detection guesses wrong on prose and costs time on long responses).
const rehypePlugins: NonNullable<ComponentProps<typeof ReactMarkdown>['rehypePlugins']> = [
  [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false, maxExpand: 500, maxSize: 50 }],
  [rehypeHighlightOnce, { detect: false, ignoreMissing: true }],
];

// What a text renders to depends on the text alone, so the React elements of the texts rendered last
// are kept (up to a number of texts and of characters, least recently used dropped): a text shown again,
// or rendered ahead with prepareMarkdown, costs nothing to render.
const rendered = new Map<string, ReactElement>();
const KEEP_TEXTS = 400;
const KEEP_CHARS = 2_000_000;
const KEEP_LONGEST = 100_000;
let keptChars = 0;
/** How many texts were parsed (not found among those kept): a key → next item whose texts were rendered ahead adds none. */
export const markdownParses = { count: 0 };

function render(text: string): ReactElement {
  const hit = rendered.get(text);
  if (hit) {
    rendered.delete(text);
    rendered.set(text, hit);
    return hit;
  }
  markdownParses.count++;
  const element = ReactMarkdown({ children: text, remarkPlugins, rehypePlugins, components, skipHtml: false, urlTransform: keepUrl });
  if (text.length <= KEEP_LONGEST) {
    rendered.set(text, element);
    keptChars += text.length;
    for (const oldest of rendered.keys()) {
      if (rendered.size <= KEEP_TEXTS && keptChars <= KEEP_CHARS) break;
      rendered.delete(oldest);
      keptChars -= oldest.length;
    }
  }
  return element;
}

/** Renders a text ahead (the next item's, while the annotator reads this one), so showing it later costs nothing. */
export function prepareMarkdown(text: string): void {
  render(text);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^( {0,3})(#{1,6})(?=[ \t]|$)/;

/**
 * The text with each line that would open a heading (`# Answer`) escaped, so it reads as the text it is;
 * lines inside fenced code are left alone. Step text from process formats uses `#` lines as markers
 * (PRM800K's "# Answer" before the final answer), not as headings.
 */
export function headingsAsText(text: string): string {
  if (!text.includes('#')) return text;
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const f = FENCE.exec(line);
      if (f) {
        if (fence === null) fence = f[1]!;
        else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length && !f[2]!.trim()) fence = null;
        return line;
      }
      return fence === null ? line.replace(ATX_HEADING, (_m, indent: string, hashes: string) => `${indent}\\${hashes}`) : line;
    })
    .join('\n');
}

/** `headings={false}`: a leading `#` line is text, not a heading (step text). */
export const Markdown = memo(function Markdown({ text, className, headings = true }: { text: string; className?: string; headings?: boolean }) {
  return <div className={`md ${className ?? ''}`}>{render(headings ? text : headingsAsText(text))}</div>;
});
