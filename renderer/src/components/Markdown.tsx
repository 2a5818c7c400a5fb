// Safe markdown for untrusted model text. Raw HTML is never parsed (react-markdown turns it into
// plain text without rehype-raw), links never navigate (rendered as spans with the target in a
// title), and images are never fetched (their alt text is shown instead).
import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import rehypeHighlight from 'rehype-highlight';

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
// chat interfaces show model output, rather than collapsing into one paragraph.
const remarkPlugins = [remarkGfm, remarkMath, remarkBreaks];
// URLs are only ever shown as text (a title), never followed or fetched, so they are kept as written:
// the annotator can see that a response links to javascript: or to a tracker.
const keepUrl = (url: string) => url;
// KaTeX errors render in red instead of throwing; highlighting only where a language is named
// (auto-detection guesses wrong on prose and costs time on long responses).
const rehypePlugins: NonNullable<ComponentProps<typeof ReactMarkdown>['rehypePlugins']> = [
  [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false, maxExpand: 500, maxSize: 50 }],
  [rehypeHighlight, { detect: false, ignoreMissing: true }],
];

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`md ${className ?? ''}`}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml={false} urlTransform={keepUrl}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
