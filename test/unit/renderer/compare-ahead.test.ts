// The compare screen renders the prefetched pair's texts ahead (features/compare/ahead.ts): once they are
// prepared, rendering the prompt and both responses as the screen does parses no Markdown (bench:loop's
// key → next item, issue 20).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

// ContentView's images reach the renderer's api module, which picks its transport from the page's address.
vi.stubGlobal('location', { origin: 'http://127.0.0.1', hash: '', pathname: '/', search: '' });
vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined });
const { ContentView } = await import('../../../renderer/src/components/ContentView');
const { markdownParses, prepareMarkdown } = await import('../../../renderer/src/components/Markdown');
const { compareTexts } = await import('../../../renderer/src/features/compare/ahead');

const item = {
  prompt: `Question ${Math.random()}: what is $x^2$ when x = 3?`,
  responses: [
    { index: 0, model: null, steps: null, content: `It is $9$, as \`3 * 3\`:\n\n\`\`\`python\nprint(3 * 3)\n\`\`\`\n${Math.random()}` },
    {
      index: 1,
      model: null,
      steps: null,
      content: [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'assistant' as const, content: [{ type: 'text' as const, text: `**Nine**, ${Math.random()}` }] },
      ],
    },
  ],
};

describe('compare: the next pair rendered ahead', () => {
  it('renders the prompt and both responses with no Markdown parsed once their texts are prepared', () => {
    const texts = compareTexts(item);
    expect(texts).toHaveLength(4);
    const before = markdownParses.count;
    for (const text of texts) prepareMarkdown(text);
    expect(markdownParses.count - before).toBe(4);
    const html = [item.prompt, ...item.responses.map((r) => r.content)].map((content, i) => renderToStaticMarkup(createElement(ContentView, { content, place: i === 0 ? 'prompt' : i - 1 }))).join('');
    expect(html).toContain('Nine');
    expect(html).toContain('katex');
    expect(markdownParses.count - before).toBe(4);
  });
});
