// What a step label says about each step beyond its rating, for agent trajectories above all (issue 14):
// how bad a tagged error is, a verdict per tool call, a corrected action that is a tool call, who and
// which turn decided a failure, and the task's outcome. Every field is keyed by response letter in a label
// revision's body, and by step index (a string, as JSON keys are) within it, as `step_tags` is.

/**
 * How bad a tagged step's error is (one per step; TRAIL's low / medium / high impact, in words a
 * reviewer reads at a glance):
 * - `minor`: the turn is worse than it should be, but the task can still succeed as it goes on;
 * - `major`: the task fails from here unless a later turn repairs it;
 * - `critical`: the task fails, or harm is done (an unsafe or irreversible action), whatever follows.
 */
export const SEVERITIES = ['minor', 'major', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A verdict on one tool call of a turn (keyed by the call's id):
 * - `correct`: the right tool with the right arguments at the right time;
 * - `wrong`: the wrong tool, wrong arguments, or the right call at the wrong time;
 * - `unnecessary`: a call that does no harm but did not need making (repeated, or its result unused).
 */
export const TOOL_VERDICTS = ['correct', 'wrong', 'unnecessary'] as const;
export type ToolVerdict = (typeof TOOL_VERDICTS)[number];

/** A chain's final answer, kept apart from the steps. */
export const CHAIN_OUTCOMES = ['correct', 'incorrect', 'unsure'] as const;
/** A trajectory's task outcome, kept apart from the turns (τ-bench's reward 1 / 0 is success / failure). */
export const TRAJECTORY_OUTCOMES = ['success', 'partial', 'failure'] as const;
export const ALL_OUTCOMES = [...CHAIN_OUTCOMES, ...TRAJECTORY_OUTCOMES] as const;
export type ChainOutcome = (typeof CHAIN_OUTCOMES)[number];
export type TrajectoryOutcome = (typeof TRAJECTORY_OUTCOMES)[number];

/** A corrected tool call: the call the agent should have made. `arguments` is a JSON object. */
export interface CorrectedCall {
  /** The id of the call it replaces, where it replaces one. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * A step's correction: the text it should have been, or (an agent turn) the tool calls it should have made,
 * with the text (the thought) before them where the annotator corrected that too.
 */
export type StepCorrection = string | { tool_calls: CorrectedCall[]; content?: string };

/** Who and when (Who&When, 2025): the agent whose turn decided the failure, and that turn's index. */
export interface Attribution {
  /** The agent's name as the trajectory gives it; absent for a single-agent trajectory. */
  agent?: string;
  step: number;
}

/** A correction as one line of text, for lists and summaries. */
export function correctionText(correction: StepCorrection): string {
  if (typeof correction === 'string') return correction;
  return correction.tool_calls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join('\n');
}

/**
 * Reads a tool call's arguments as typed: a JSON object, or why not, in words ("line 2, column 5:
 * expected a property name"); used as the call editor is typed in, and by nothing that stores.
 */
export function readArgumentsText(text: string): { value: Record<string, unknown> } | { error: string } {
  const source = text.trim() === '' ? '{}' : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const message = (error as Error).message.replace(/^JSON\.parse: /, '');
    const at = /position (\d+)/.exec(message);
    if (!at) return { error: `not JSON: ${message}` };
    const offset = Number(at[1]);
    const before = source.slice(0, offset).split('\n');
    return { error: `not JSON at line ${before.length}, column ${before.at(-1)!.length + 1}: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/ at position \d+.*$/, '')}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: `the arguments must be a JSON object ({"name": value, …}), not ${Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`}` };
  return { value: value as Record<string, unknown> };
}

/**
 * Error tag presets the Step labels panel adds to a project's taxonomy. Drawn from TRAIL's taxonomy
 * (Deshpande et al. 2025: tool selection, formatting, tool-output misinterpretation, goal deviation,
 * resource abuse, context handling), MAST / Who&When's failure modes (step repetition, premature
 * termination, disobeying the task, no or wrong verification) and the step errors AgentPRM-style process
 * labels mark, in short words an annotator reads at a glance. The GUI preset follows Mind2Web's step
 * metrics (element, operation and typed value each right or wrong) and GUI-agent reward work's failure kinds
 * (acting on an element or a page that is not there, stopping early).
 */
const GUI_PRESET = 'GUI / web agent';

export const TAG_PRESETS: { name: string; note: string; tags: string[] }[] = [
  {
    name: 'General agent',
    note: 'What goes wrong in an agent’s turn, whatever its tools.',
    tags: ['task misunderstood', 'goal deviation', 'ignored instruction', 'hallucinated fact', 'wrong reasoning', 'poor plan', 'context lost', 'repeated action', 'premature stop', 'unverified answer', 'unsafe action'],
  },
  {
    name: 'Tool use',
    note: 'What goes wrong in a tool call and its result.',
    tags: ['wrong tool', 'wrong arguments', 'wrong order', 'malformed call', 'missing call', 'unnecessary call', 'hallucinated result', 'misread result', 'ignored error', 'unsafe action'],
  },
  {
    name: GUI_PRESET,
    note: 'What goes wrong in a GUI or web agent’s step on a screenshot (Mind2Web’s element / operation / value, and stopping before the task is done).',
    tags: ['wrong element', 'wrong action', 'hallucinated element', 'hallucinated page', 'wrong text', 'premature stop'],
  },
];

/**
 * The error tags a project of agent trajectories starts with (instead of the math ones): the "General
 * agent" and "Tool use" presets, or for GUI / web agents "General agent" and "GUI / web agent", each tag once.
 */
export function agentErrorTags(gui: boolean): string[] {
  const names = ['General agent', gui ? GUI_PRESET : 'Tool use'];
  return [...new Set(TAG_PRESETS.filter((p) => names.includes(p.name)).flatMap((p) => p.tags))];
}

/**
 * The error tags the step screen offers on an item: the project's own, then, on a GUI agent's trajectory
 * (shared/guiActions.ts isGuiTrajectory), the "GUI / web agent" preset's tags the project does not have
 * (at most 50 in all, as a project's list).
 */
export function offeredTags(projectTags: readonly string[], gui: boolean): string[] {
  if (!gui) return [...projectTags];
  const preset = TAG_PRESETS.find((p) => p.name === GUI_PRESET)!;
  return [...projectTags, ...preset.tags.filter((t) => !projectTags.includes(t))].slice(0, Math.max(50, projectTags.length));
}
