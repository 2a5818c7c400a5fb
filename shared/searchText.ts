// What the search index holds of a prompt or a response (electron/core/store/search.ts): the words a
// person reads, not the JSON around them. A message list gives each message's text (typed parts: their
// text; an image part is left out), a trajectory's tool calls give their name and arguments and its tool
// messages their results, in the `tool` text, so that `tool:grep` finds a call and `response:` finds both.

/** Text and tool text of one prompt or response. */
export interface SearchText {
  text: string;
  tool: string;
}

/** The index's snippet marks; taken out of indexed text so a snippet's hits cannot be forged by content. */
export const HIT_OPEN = '\uE000';
export const HIT_CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/g;

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const part of content) {
    if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') out.push((part as { text: string }).text);
  }
  return out.join('\n');
}

function argumentsWords(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined || args === null) return '';
  return JSON.stringify(args);
}

/** A prompt's or a response's searchable text (content as stored: a string or a message list). */
export function searchText(content: unknown): SearchText {
  if (typeof content === 'string') return { text: content.replace(MARKS, ''), tool: '' };
  if (!Array.isArray(content)) return { text: '', tool: '' };
  const text: string[] = [];
  const tool: string[] = [];
  for (const message of content as unknown[]) {
    if (!message || typeof message !== 'object') continue;
    const m = message as { role?: unknown; content?: unknown; tool_calls?: unknown; name?: unknown };
    const words = partsText(m.content);
    if (m.role === 'tool') {
      if (typeof m.name === 'string') tool.push(m.name);
      if (words) tool.push(words);
    } else if (words) text.push(words);
    if (Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls as unknown[]) {
        const fn = call && typeof call === 'object' ? (call as { function?: unknown }).function : null;
        if (!fn || typeof fn !== 'object') continue;
        const { name, arguments: args } = fn as { name?: unknown; arguments?: unknown };
        if (typeof name === 'string') tool.push(name);
        const a = argumentsWords(args);
        if (a) tool.push(a);
      }
    }
  }
  return { text: text.join('\n').replace(MARKS, ''), tool: tool.join('\n').replace(MARKS, '') };
}

/** The response and tool columns of an item's responses, each response's text on its own lines. */
export function responsesSearchText(contents: readonly unknown[]): SearchText {
  const text: string[] = [];
  const tool: string[] = [];
  for (const content of contents) {
    const t = searchText(content);
    if (t.text) text.push(t.text);
    if (t.tool) tool.push(t.tool);
  }
  return { text: text.join('\n\n'), tool: tool.join('\n\n') };
}
