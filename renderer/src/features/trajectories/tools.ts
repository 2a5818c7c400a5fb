// The tool schemas a trajectory was given, where its file listed them: the run's own `tools` (an
// openai-tools line), else the record's (a tool-calling pair's `tools`), as the importer keeps them in
// the item's metadata (electron/core/formats/trajectories/common.ts trajectoryTools reads the same).
// Untrusted: only a list is taken, and what is shown of it is bounded.

const MAX_TOOLS = 200;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function toolsOf(metadata: Record<string, unknown> | undefined, response: number): unknown[] | null {
  const meta = metadata?.trajectory;
  if (!isObject(meta)) return null;
  const run = Array.isArray(meta.runs) ? meta.runs[response] : undefined;
  const tools = isObject(run) && Array.isArray(run.tools) ? run.tools : isObject(meta.record) && Array.isArray(meta.record.tools) ? meta.record.tools : null;
  return tools && tools.length ? tools.slice(0, MAX_TOOLS) : null;
}

/** A tool's name: OpenAI's `{type: 'function', function: {name}}`, or a bare `{name}`. */
export function toolName(tool: unknown): string {
  if (!isObject(tool)) return '?';
  const fn = isObject(tool.function) ? tool.function : tool;
  return typeof fn.name === 'string' && fn.name ? fn.name.slice(0, 80) : '?';
}
