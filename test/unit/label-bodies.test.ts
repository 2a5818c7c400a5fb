// One type for a label body (issue 21, section 3): shared/labelBodies.ts holds one codec per task kind,
// and every reader and writer takes the body's type and checks from it. The labels file's line checks
// its body fields with the very same schemas; a body the app saves passes its task's codec and reads
// back as it was; and no file keeps its own copy of a body's type.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelSchema } from '../../electron/core/formats/exchange/labelLine';
import { check } from '../../electron/core/formats/validate';
import { TASKS } from '../../shared/domain';
import { hydrateBody, LABEL_BODY_FIELDS, labelBody, parseBody, PER_RESPONSE_FIELDS, readBody, serializeBody, TASK_BODIES, type StepsBody } from '../../shared/labelBodies';

const ROOT = join(__dirname, '..', '..');
const line = { id: 'r1', item: 'q1', annotator: 'ana', created_at: '2026-11-01T00:00:00Z' };

/** What a labels file's line says of a body, and what the task's codec says. */
function lineAnswer(body: Record<string, unknown>): string | null {
  try {
    check(labelSchema, { ...line, ...body });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the label body codecs', () => {
  it('have one codec per task kind', () => {
    expect(Object.keys(TASK_BODIES).sort()).toEqual([...TASKS].sort());
  });

  it('are the labels line’s body fields, the same schema objects in the same order', () => {
    const shape = labelSchema.shape as Record<string, unknown>;
    const keys = Object.keys(shape);
    const bodyKeys = Object.keys(LABEL_BODY_FIELDS);
    // Between the revision's own fields and created_at, in the codec's order (so errors are said in the same order).
    expect(keys.slice(keys.indexOf('shown_order') + 1, keys.indexOf('created_at'))).toEqual(bodyKeys);
    for (const key of bodyKeys) expect(shape[key], key).toBe(LABEL_BODY_FIELDS[key as keyof typeof LABEL_BODY_FIELDS]);
    // Each task's codec takes its fields from the same schemas.
    for (const [task, codec] of Object.entries(TASK_BODIES))
      for (const [key, schema] of Object.entries(codec.shape)) expect(schema, `${task}.${key}`).toBe(LABEL_BODY_FIELDS[key as keyof typeof LABEL_BODY_FIELDS]);
    for (const key of PER_RESPONSE_FIELDS) expect(bodyKeys).toContain(key);
  });

  it('accept a body the app writes, read it back as it was, and refuse what a labels line refuses', () => {
    const steps: StepsBody = {
      steps: { A: [1, -1, null] },
      first_error: { A: 1 },
      segmentation: { A: 1 },
      step_tags: { A: { '1': ['logic'] } },
      step_severity: { A: { '1': 'major' } },
      tool_verdicts: { A: { '1': { call_1: 'wrong' } } },
      corrections: { A: { '1': { tool_calls: [{ name: 'search', arguments: { q: 'x' } }] } } },
      attribution: { A: { agent: 'coder', step: 1 } },
      outcome: { A: 'failure' },
      finish_reason: { A: 'found_error' },
      time_ms: 1200,
      prelabel_visible: false,
      resegmented: { A: { op: 'split', step: 0, from: 1, to: 2 } },
    };
    const bodies = {
      pairwise: { rationale: 'B rambles.', time_ms: 900, regions: [{ image: 'a'.repeat(64), at: 'prompt', kind: 'point', point: [0.5, 0.5], tag: 'cat' }] },
      ranking: { rationale: '', prelabel_visible: true },
      verdict: { adjudicated: true, rationale: 'wrong unit' },
      rubric: { ratings: { A: { helpful: 4, safe: null, tone: 'formal' } }, rubric: 'default', rubric_version: 2 },
      critique: { critique: { A: 'Misreads the question.' }, wrong_reasoning: { B: true }, based_on: 'r0' },
      steps,
    } as const;
    for (const [task, body] of Object.entries(bodies) as [keyof typeof bodies, Record<string, unknown>][]) {
      const parsed = parseBody(task, body);
      expect(parsed, task).toEqual({ ok: true, body });
      expect(readBody(task, serializeBody(body)), task).toEqual(body);
      expect(labelBody.safeParse(body).success, task).toBe(true);
      expect(lineAnswer(body), task).toBeNull();
    }
    const wrong = [{ steps: { A: [2] } }, { first_error: { a: 1 } }, { outcome: { A: 'fine' } }, { time_ms: -1 }, { rationale: 'x'.repeat(20_001) }, { critique: { A: 7 } }, { rubric_version: 0 }];
    for (const body of wrong) {
      const task = 'steps' in body || 'first_error' in body || 'outcome' in body ? 'steps' : 'critique' in body ? 'critique' : 'rubric_version' in body ? 'rubric' : 'pairwise';
      const parsed = parseBody(task, body);
      expect(parsed.ok, JSON.stringify(body)).toBe(false);
      const said = lineAnswer(body);
      expect(said, JSON.stringify(body)).not.toBeNull();
      // The same field: the line names it as the codec does (the line words a bad key its own way).
      if (!parsed.ok) expect(said!.split(/[.[:]/)[0]).toBe(parsed.problems[0]!.split(/[.:]/)[0]);
    }
    expect(readBody('steps', 'not json')).toEqual({});
    expect(readBody('steps', 'null')).toEqual({});
  });

  it('are the only place a body’s type is written down', () => {
    const own = /\binterface\s+\w*Body\s+(extends\s+LabelBody\s*)?\{|\btype\s+\w*Body\s*=\s*\{|\binterface\s+LabelBody\b/;
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== 'node_modules') walk(full);
        } else if (/\.tsx?$/.test(name) && !full.endsWith(join('shared', 'labelBodies.ts'))) {
          const text = readFileSync(full, 'utf8');
          // A label body's fields (steps / first_error, critique, ratings per response) typed outside the codecs.
          if (own.test(text) && /first_error|critique|wrong_reasoning|prelabel_visible/.test(text)) found.push(relative(ROOT, full));
        }
      }
    };
    for (const tree of ['electron', 'shared', 'renderer/src']) walk(join(ROOT, tree));
    expect(found).toEqual([]);
  });

  it('are how the store writes a body and reads it back (hydrateBody / serializeBody), as they were', () => {
    const stored: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/JSON\.(parse|stringify)\(\s*(row|draft|label|l)\.body\b/.test(readFileSync(full, 'utf8'))) stored.push(relative(ROOT, full));
      }
    };
    walk(join(ROOT, 'electron'));
    expect(stored).toEqual([]);
    const body: StepsBody = { steps: { A: [1, null] }, first_error: { A: -1 }, segmentation: { A: 1 }, rationale: 'é \u2028 "q"', extra: { kept: [1] } };
    expect(serializeBody(body)).toBe(JSON.stringify(body));
    expect(hydrateBody(serializeBody(body))).toEqual(body);
    expect(() => hydrateBody('{damaged')).toThrow();
  });
});
