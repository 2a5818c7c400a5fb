// Generated agent trajectories in Arbiter's trajectory shape (docs/formats.md, "Trajectories"), for the
// screenshots (scripts/screenshots-trajectories.mjs) and the labeling-loop bench (--screen trajectories).
// A coding agent's run on a bug: it searches, reads files, runs tests (terminal output with ANSI colours),
// edits code (str_replace old → new), hits a failing command, and submits. Deterministic for a seed.

const FILES = ['src/marshmallow/fields.py', 'src/marshmallow/schema.py', 'src/marshmallow/utils.py', 'tests/test_fields.py'];

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const call = (id, name, args) => ({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
const reply = (id, name, content, extra = {}) => ({ role: 'tool', tool_call_id: id, name, content, ...extra });

function fileText(lines, from, seed) {
  const r = rng(seed);
  return Array.from({ length: lines }, (_, i) => {
    const n = from + i;
    const pick = Math.floor(r() * 4);
    const body = ['        value = self._serialize(value, attr, obj)', '        if value is None:', '            return None', `        return int(value.total_seconds() / base_unit.total_seconds())  # ${n}`][pick];
    return `${String(n).padStart(5)}\t${body}`;
  }).join('\n');
}

/**
 * One run of `turns` agent turns; `outputBytes` spreads that much tool output over the reads and test runs
 * (the bench's 2 MB case). Turn `failAt` runs a command that fails (exit 1).
 */
export function agentRun({ seed = 1, turns = 12, outputBytes = 0, failAt = 6, thoughts = true } = {}) {
  const r = rng(seed);
  const messages = [];
  const reads = Math.max(1, Math.floor(turns / 3));
  const perRead = outputBytes ? Math.max(1, Math.floor(outputBytes / reads / 62)) : 0;
  for (let k = 0; k < turns; k++) {
    const id = `call_${seed}_${k + 1}`;
    const file = FILES[Math.floor(r() * FILES.length)];
    const think = (text) => (thoughts ? text : '');
    let pair;
    if (k === turns - 1) {
      pair = [{ ...call(id, 'submit', {}), content: think('The tests pass; submitting the patch.') }, reply(id, 'submit', 'diff --git a/src/marshmallow/fields.py b/src/marshmallow/fields.py\n--- a/src/marshmallow/fields.py\n+++ b/src/marshmallow/fields.py\n@@ -1474 +1474 @@\n-        return int(value.total_seconds() / base_unit.total_seconds())\n+        return int(round(value.total_seconds() / base_unit.total_seconds()))')];
    } else if (k === failAt) {
      pair = [
        { ...call(id, 'bash', { command: 'python -m pytest tests/test_fields.py -q -x' }), content: think('Run the field tests to see whether the rounding broke anything.') },
        reply(id, 'bash', `\u001b[1m============================= test session starts ==============================\u001b[0m\ncollected 212 items\n\ntests/test_fields.py \u001b[32m....................\u001b[0m\u001b[31mF\u001b[0m\n\n=================================== FAILURES ===================================\n\u001b[31m\u001b[1m___________________ TestTimeDelta.test_serialize_milliseconds ___________________\u001b[0m\n\n    def test_serialize_milliseconds(self):\n>       assert field.serialize("d", obj) == 345\n\u001b[1m\u001b[31mE       AssertionError: assert 344 == 345\u001b[0m\n\n\u001b[31m=========================== 1 failed, 20 passed in 0.41s ===========================\u001b[0m\n[Command finished with exit code 1]`, { arbiter: { kind: 'error' } }),
      ];
    } else if (k % 3 === 0) {
      const start = 1 + Math.floor(r() * 1500);
      const lines = perRead || 12 + Math.floor(r() * 60);
      pair = [{ ...call(id, 'str_replace_editor', { command: 'view', path: `/repo/${file}`, view_range: [start, start + lines - 1] }), content: think(`Read ${file} around line ${start}.`) }, reply(id, 'str_replace_editor', fileText(lines, start, seed * 31 + k))];
    } else if (k % 3 === 1 && k % 2 === 0) {
      pair = [
        {
          ...call(id, 'str_replace_editor', {
            command: 'str_replace',
            path: `/repo/${file}`,
            old_str: '        if value is None:\n            return None\n        return int(value.total_seconds() / base_unit.total_seconds())',
            new_str: '        if value is None:\n            return None\n        seconds = value.total_seconds() / base_unit.total_seconds()\n        return int(round(seconds))',
          }),
          content: think('Round to the nearest unit instead of truncating toward zero.'),
        },
        reply(id, 'str_replace_editor', `The file /repo/${file} has been edited. Here's the result of running \`cat -n\` on a snippet:\n  1473\t        if value is None:\n  1474\t            return None\n  1475\t        seconds = value.total_seconds() / base_unit.total_seconds()\n  1476\t        return int(round(seconds))`),
      ];
    } else {
      const pattern = ['total_seconds', 'base_unit', 'TimeDelta', '_serialize'][k % 4];
      pair = [
        { ...call(id, 'bash', { command: `grep -rn --color=always "${pattern}" src/ | head -20` }), content: think(`Find where ${pattern} is used.`) },
        reply(id, 'bash', Array.from({ length: 3 + Math.floor(r() * 8) }, (_, i) => `\u001b[35m${FILES[i % 3]}\u001b[0m:\u001b[32m${100 + i * 37}\u001b[0m:        x = \u001b[1;31m${pattern}\u001b[0m(value)`).join('\n')),
      ];
    }
    pair[0].arbiter = { id: `turn-${k + 1}` };
    messages.push(...pair);
  }
  return messages;
}

export const TASK = [
  { role: 'system', content: 'SETTING: You are an autonomous programmer, and you are working directly in the command line with a special interface.\n\nThe special interface consists of a file editor that shows you 100 lines of a file at a time. In addition to typical bash commands, you can also use the following commands to help you navigate and edit files: str_replace_editor (view, create, str_replace, insert, undo_edit), bash and submit.\n\nPlease note that THE EDIT COMMAND REQUIRES PROPER INDENTATION. Always check your edits by viewing the file again.' },
  { role: 'user', content: 'TimeDelta serialization precision\n\n```python\nfrom marshmallow.fields import TimeDelta\nfrom datetime import timedelta\n\ntd_field = TimeDelta(precision="milliseconds")\nobj = dict()\nobj["td_field"] = timedelta(milliseconds=345)\nprint(td_field.serialize("td_field", obj))\n```\n\nOutput of this snippet is `344`, but it should be `345`. Fix it so the value is rounded, not truncated.' },
];

/** One line of an arbiter-trajectory file: a task with one or more runs. */
export function taskLine(id, runs, reference = 'TimeDelta(precision="milliseconds") serializes 345 ms as 345; the whole test suite passes.') {
  return { id, task: TASK, reference, trajectories: runs.map((messages, i) => ({ id: `run-${i + 1}`, model: `agent-${String.fromCharCode(97 + i)}`, messages })) };
}
