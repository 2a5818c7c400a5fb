// Money in model text stays text: "$0.75 ÷ 3 = $0.25" (GSM8K-style steps) is not KaTeX, while real
// inline math ($x^2$) still is. Rendered through the app's own Markdown component.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../renderer/src/components/Markdown';
import { isCurrency } from '../../../renderer/src/components/currencyMath';

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));
const plain = (markup: string) => markup.replace(/<[^>]+>/g, '');

describe('currency in markdown', () => {
  it('keeps the dollars of amounts as text', () => {
    for (const text of ['She pays $0.75 ÷ 3 = $0.25 each.', 'It costs $5 and $6.', 'From $5-$10 a day.', 'He paid $5. She paid $7.']) {
      const out = html(text);
      expect(out, text).not.toContain('katex');
      expect(plain(out), text).toContain(text);
    }
  });

  it('still renders real inline math', () => {
    for (const text of ['Let $x^2$ be', 'so $2^3 = 8$ holds', 'area $$\\pi r^2$$ here']) expect(html(text), text).toContain('class="katex"');
    // Money beside math: each read as it is meant.
    const both = html('The $x$ apples cost $3 in all.');
    expect(both).toContain('class="katex"');
    expect(plain(both)).toContain('cost $3 in all.');
  });

  it('leaves code alone', () => {
    expect(plain(html('`$5 and $6`'))).toContain('$5 and $6');
    expect(plain(html('```\nprice = $5 + $6\n```'))).toContain('price = $5 + $6');
  });

  it('reads money by pandoc’s rule', () => {
    expect(isCurrency('$0.75 ÷ 3 = $', '0')).toBe(true);
    expect(isCurrency('$5 and $', 'x')).toBe(true);
    expect(isCurrency('$2^3 = 8$', ' ')).toBe(false);
    expect(isCurrency('$x$', '5')).toBe(false);
    expect(isCurrency('$$5 $$', '')).toBe(false);
  });
});
