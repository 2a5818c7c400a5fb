// A Multimodal-Mind2Web row whose target_action_index is an object with its own valueOf / toString (what
// a hostile file holds; FUZZ_SEED=2 of the import fuzz found it): reading the row's step index called
// them, and the TypeError stopped the whole import, --skip-invalid or not ("arbiter import: Cannot
// convert object to primitive value"). The index is read only from a number or its text now; anything
// else leaves the steps in file order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeMind2web, parseMind2web } from '../../../electron/core/formats/trajectories/mind2web';
import { ROOT } from '../../helpers/host';

const rows = readFileSync(join(ROOT, 'test/fixtures/formats/gui/mind2web.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const hostile = JSON.parse('{"toString":1,"valueOf":"v","hasOwnProperty":null}') as unknown;

describe('mind2web with a hostile target_action_index', () => {
  it('parses the row and merges its task, the steps in file order', () => {
    const first: Record<string, unknown> = { ...rows[0]!, target_action_index: hostile };
    const second = rows.find((r) => r.annotation_id === rows[0]!.annotation_id && r !== rows[0])!;
    const parsed = [parseMind2web(first), parseMind2web(second)];
    const merged = mergeMind2web(parsed);
    const calls = (merged.draft.responses[0]!.content as { tool_calls?: { id: string }[] }[]).flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
    expect(calls).toEqual([String(first.action_uid), String(second.action_uid)]);
  });
});
