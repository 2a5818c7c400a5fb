// Money is not math. remark-math opens inline math at any single `$`, so a GSM8K-style step such as
// "$0.75 ÷ 3 = $0.25" became KaTeX of "0.75 ÷ 3 = " and both dollars vanished. micromark's math
// extension has no rule for currency (only `singleDollarTextMath` on or off), so this plugin runs after
// the parse and turns back into text, exactly as written, each inline math that reads as money by
// pandoc's rule: it opens on a digit, and its closing `$` follows a space or is followed by a digit.
// `$x^2$`, `$2^3 = 8$`, `$$…$$` and math blocks are left alone. Code is never touched (it is not math).

interface Node {
  type: string;
  value?: string;
  children?: Node[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** Whether `source` (an inline math as written, dollars included) followed by `after` reads as money. */
export function isCurrency(source: string, after: string): boolean {
  if (!source.startsWith('$') || source.startsWith('$$') || !source.endsWith('$')) return false;
  const inner = source.slice(1, -1);
  if (!/^\d/.test(inner)) return false;
  return /\s$/.test(inner) || /^\d/.test(after);
}

function revert(node: Node, text: string): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    const start = child.position?.start.offset;
    const end = child.position?.end.offset;
    if (child.type === 'inlineMath' && start !== undefined && end !== undefined) {
      const source = text.slice(start, end);
      if (isCurrency(source, text.slice(end, end + 1))) return { type: 'text', value: source, position: child.position };
    }
    revert(child, text);
    return child;
  });
}

/** The remark plugin (after remark-math): inline math that is money becomes its text again. */
export function remarkCurrency() {
  return (tree: Node, file: { value?: unknown }) => {
    const text = typeof file.value === 'string' ? file.value : String(file.value ?? '');
    if (text.includes('$')) revert(tree, text);
  };
}
