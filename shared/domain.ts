// Domain types shared by every layer. Pure data: no I/O, no Node or DOM APIs.
import type { GoldRules } from './goldRules';
import type { LabelBody } from './labelBodies';

/** A revision's body: its type is its codec's (shared/labelBodies.ts, one per task kind). */
export type { LabelBody };

export type Role = 'system' | 'user' | 'assistant' | 'tool';
/**
 * A typed part of a message, as the Hugging Face and OpenAI chat shapes allow ({type: 'text', text},
 * {type: 'image_url', image_url: {url}}, {type: 'image', …}). Stored and exported as it came; the UI
 * shows the text parts and names the others.
 */
export interface ContentPart {
  type: string;
  text?: string;
  [extra: string]: unknown;
}
export interface ChatMessage {
  role: Role | string;
  content: string | ContentPart[];
  [extra: string]: unknown;
}
/**
 * A prompt or a response is either plain text or a chat message list. An agent trajectory is a response
 * whose messages carry tool calls and tool results (OpenAI's shape, Arbiter's own fields under `arbiter`);
 * its steps are its agent turns. The model and the turn grouping: shared/trajectory.ts.
 */
export type Content = string | ChatMessage[];

export type Choice = 'A' | 'B' | 'tie' | 'both_bad';
/** A verdict on an item with one response (unpaired / KTO data). */
export type Verdict = 'good' | 'bad';
/** 1 slightly, 2 clearly, 3 much better. */
export type Strength = 1 | 2 | 3;
export type AnnotatorKind = 'human' | 'model' | 'source';
/** A kind of judgement; each has its own current label per (item, annotator). */
export const TASKS = ['pairwise', 'ranking', 'steps', 'rubric', 'verdict', 'critique'] as const;
export type Task = (typeof TASKS)[number];

export interface ResponseRecord {
  index: number;
  content: Content;
  model: string | null;
  steps: string[] | null;
}

export interface ItemRecord {
  id: number;
  uid: string;
  externalId: string | null;
  seq: number;
  prompt: Content;
  reference: string | null;
  metadata: Record<string, unknown>;
  responses: ResponseRecord[];
}

export interface LabelRevision {
  id: string;
  itemId: number;
  annotator: string;
  /** The annotator's identity across machines (names may repeat between machines; uuids do not). */
  annotatorUuid: string;
  annotatorKind: AnnotatorKind;
  task: Task;
  createdAt: string;
  /** null means the revision clears the label (an undo back to nothing); verdicts are 'good' / 'bad'. */
  choice: Choice | Verdict | null;
  /** Groups of tied response indexes, best first. */
  ranking: number[][] | null;
  strength: Strength | null;
  /** Source-order response indexes in the order they were shown, left to right. */
  shownOrder: number[] | null;
  body: LabelBody;
}

export interface ProjectSummary {
  name: string;
  createdAt: string;
  items: number;
  /** Items with a current label by at least one human annotator. */
  labeled: number;
  settings: ProjectSettings;
}

export interface ProjectSettings {
  prelabels: 'blind' | 'assist';
  /** How responses without steps of their own are cut into steps (see shared/segment.ts). */
  segmentation: 'auto' | 'markers' | 'numbered' | 'paragraphs' | 'lines';
  /** The error tags offered on the step screen (the project's taxonomy, editable). */
  errorTags: string[];
  /**
   * The order the labeling loop walks items in: the file's, a random one seeded per annotator, or the
   * items the reward models are least sure about first (then the rest in the file's order).
   */
  order: LabelingOrder;
  /** Overlap: each item goes to `overlap` people of `team` (0: everyone labels every item). */
  overlap: number;
  /** The people who share the work, by annotator name; the same list on every machine splits it the same way. */
  team: string[];
  /** Gold for people, per task: honeypots, a qualification set, the accuracy bar (shared/goldRules.ts). */
  gold: GoldRules;
  /** Items a lead sent to review, by uid, oldest first (electron/core/store/review.ts sendItemsToReview). */
  reviewSent?: { uid: string; by: string; at: string }[];
}
export const LABELING_ORDERS = ['source', 'random', 'uncertain'] as const;
export type LabelingOrder = (typeof LABELING_ORDERS)[number];
export const DEFAULT_ERROR_TAGS = ['calculation', 'logic', 'factual / hallucination', 'misread question', 'redundant but correct', 'incomplete', 'formatting'];
export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = { prelabels: 'blind', segmentation: 'auto', errorTags: DEFAULT_ERROR_TAGS, order: 'source', overlap: 0, team: [], gold: {} };

export interface ImportSummary {
  project: string;
  format: string;
  file: string;
  lines: number;
  items: number;
  duplicates: number;
  labels: number;
  rejected: number;
  rejectsFile: string | null;
  /** New items whose external id another item of the project (or of the file) has too, and the first few of those ids. */
  sharedIds: NamedCount;
  /** New items holding images, and the first few of them (external id, else "line N"). */
  images: NamedCount;
  /**
   * The distinct images of the new items (an image held by many items counts once): `added` to the image
   * store by this import, or `kept`, there already (from an earlier import, or another project).
   */
  imageFiles: { added: number; kept: number };
  /** The distinct videos of the new items (stored in the video store; an http URL is kept, not counted). */
  videoFiles?: number;
  /** New items with an image that is not available offline (an http(s) URL, kept and never fetched), and the first few. */
  imagesOffline: NamedCount;
}

/** How many, and the first few by name. */
export interface NamedCount {
  items: number;
  examples: string[];
}

export interface ExportSummary {
  project: string;
  format: string;
  out: string;
  written: number;
  skipped: { unlabeled: number; tie: number; both_bad: number; conflict: number; not_pairwise: number; not_adjudicated: number; low_agreement: number };
  note: string | null;
  /** Items holding images a text format could not carry: written without them (images: 'drop'). */
  imagesDropped: NamedCount;
}

export interface LineError {
  line: number;
  reason: string;
}
