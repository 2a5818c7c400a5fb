// The contract's validation issues as a sentence for people, said the way a screen would say it ("Could
// not open the item: the item id must be more than 0 (it was 0)."), never zod's own text ("Invalid
// input: itemId: Too small…"). Programs still get the issues, without the values, in `details`.
import type { ApiName } from '../../../shared/api';

/** What each operation does, for "Could not …". */
const ACTIONS: Partial<Record<ApiName, string>> = {
  getItem: 'open the item',
  nextItem: 'move to another item',
  saveLabel: 'save the label',
  saveRationale: 'save the rationale',
  saveRegions: 'save the region marks',
  undoLabel: 'undo the label',
  labelHistory: 'read the item’s label history',
  progress: 'read your progress',
  listItems: 'list the items',
  previewImport: 'preview the file',
  importContent: 'import the file',
  previewUpload: 'preview the file',
  importUpload: 'import the file',
  importFolder: 'import the folder',
  startUpload: 'read in the file',
  uploadChunk: 'read in the file',
  exportProject: 'export',
  downloadTicket: 'download the export',
  createProject: 'create the project',
  renameProject: 'rename the project',
  deleteProject: 'delete the project',
  updateProjectSettings: 'change the project’s settings',
  addModel: 'add the model',
  inspectModel: 'inspect the model folder',
  removeModel: 'remove the model',
  startScoring: 'start scoring',
  prelabels: 'read the model pre-labels',
  saveRanking: 'save the ranking',
  saveVerdict: 'save the verdict',
  saveSteps: 'save the step ratings',
  resegment: 'change the steps',
  saveCritique: 'save the critique',
  saveRatings: 'save the ratings',
  saveRubric: 'save the rubric',
  saveItemCriteria: 'save the item’s criteria',
};

/** What each field is, in words. */
const FIELDS: Record<string, string> = {
  project: 'the project name',
  name: 'the name',
  annotator: 'the annotator name',
  itemId: 'the item id',
  seq: 'the item number',
  afterSeq: 'the position to go on from',
  offset: 'the row to start at',
  limit: 'the number of rows',
  filter: 'the filter',
  order: 'the order',
  choice: 'the choice',
  strength: 'the strength',
  shownOrder: 'the order the responses were shown in',
  rationale: 'the rationale',
  format: 'the format',
  fileName: 'the file name',
  head: 'the start of the file',
  content: 'the file',
  file: 'the export file',
  uploadId: 'the upload',
  modelId: 'the model id',
  modelIds: 'the models',
  dir: 'the model folder',
  batchSize: 'the batch size',
  jobId: 'the job',
};

export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  values?: unknown[];
  keys?: string[];
  input?: unknown;
  errors?: Issue[][];
  /** An invalid_key issue's own issues (what the key should have been). */
  issues?: Issue[];
}

const KINDS: Record<string, string> = { number: 'a number', string: 'text', boolean: 'true or false', array: 'a list', object: 'an object' };

/** A field in words ("the item id"), or its path where it is nested ("“ratings.A.safe”"). */
function fieldOf(path: readonly PropertyKey[]): string {
  if (path.length > 1) return `“${pathOf(path)}”`;
  const key = [...path].reverse().find((p) => typeof p === 'string');
  return key === undefined ? 'the request' : (FIELDS[key] ?? `“${key}”`);
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** What a union's branches expect, from their type issues: "a number, text or true or false". */
function unionExpected(issue: Issue): string | null {
  const kinds = [...new Set((issue.errors ?? []).flatMap((branch) => branch.filter((b) => b.code === 'invalid_type' && b.path.length === 0).map((b) => KINDS[b.expected ?? ''] ?? b.expected)))];
  if (!kinds.length) return null;
  return kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(', ')} or ${kinds[kinds.length - 1]}`;
}

function shown(input: unknown): string {
  if (input === undefined) return '';
  const text = typeof input === 'string' ? `“${input.length > 40 ? `${input.slice(0, 40)}…` : input}”` : JSON.stringify(input) ?? String(input);
  return text.length > 60 ? '' : ` (it was ${text})`;
}

/** zod's default messages start like this; a schema's own message is already meant for people. */
const ZOD_DEFAULT = /^(Too (small|big)|Invalid|Unrecognized)/;

function sentence(issue: Issue): string {
  const field = fieldOf(issue.path);
  // A schema's own "expected …" message says what fits but not where: the field goes before it.
  if (/^expected /.test(issue.message) && issue.path.length) return `${pathOf(issue.path)}: ${issue.message}`;
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  const min = Number(issue.minimum);
  const max = Number(issue.maximum);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${field} is missing` : `${field} must be ${KINDS[issue.expected ?? ''] ?? issue.expected}${shown(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string') return min <= 1 ? `${field} is empty` : `${field} must be at least ${min} characters long`;
      if (issue.origin === 'array') return `${field} needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`;
      return `${field} must be ${issue.inclusive ? `${min} or more` : `more than ${min}`}${shown(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} is longer than ${max.toLocaleString('en')} characters`;
      if (issue.origin === 'array') return `${field} has more than ${max} entries`;
      return `${field} must be ${issue.inclusive ? `${max} or less` : `less than ${max}`}${shown(issue.input)}`;
    case 'invalid_value':
      return `${field} must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}${shown(issue.input)}`;
    case 'invalid_union': {
      const expected = unionExpected(issue);
      return expected ? `${field} must be ${expected}${shown(issue.input)}` : `${field} is not valid${shown(issue.input)}`;
    }
    case 'invalid_key': {
      const inner = issue.issues?.[0]?.message;
      return `${field} is not a key that fits here${inner && !ZOD_DEFAULT.test(inner) ? `: ${inner}` : ''}${shown(issue.path[issue.path.length - 1])}`;
    }
    case 'unrecognized_keys':
      return `Arbiter does not know ${(issue.keys ?? []).map((k) => `“${k}”`).join(', ')} here`;
    default:
      return `${field} is not valid${shown(issue.input)}`;
  }
}

/** One sentence for every issue (at most three named), starting with what could not be done. */
export function describeInvalidInput(issues: readonly Issue[], operation?: ApiName): string {
  const parts = issues.slice(0, 3).map(sentence);
  if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
  const action = operation && ACTIONS[operation] ? `Could not ${ACTIONS[operation]}` : 'The request was refused';
  const text = parts.join('; ');
  return `${action}: ${text}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/** The issues for programs: where and what, without the values (a refused file's text stays home). */
export function issueDetails(issues: readonly Issue[]): { code: string; path: PropertyKey[]; message: string }[] {
  return issues.map(({ code, path, message }) => ({ code, path, message }));
}
