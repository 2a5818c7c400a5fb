#!/usr/bin/env node
// Writes resources/demo/pairs.jsonl: the demo project's 50 pairs (Arbiter item format). Deterministic.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'demo', 'pairs.jsonl');
const items = [];
const add = (id, prompt, a, b, meta = {}, reference = undefined) =>
  items.push({ id, prompt, responses: [{ text: a[0], model: a[1] }, { text: b[0], model: b[1] }], ...(reference ? { reference } : {}), metadata: meta });

add('demo-001', 'Which is larger, 9.8 or 9.11?',
  ['**9.8** is larger.\n\nCompare the decimals digit by digit: 9.8 = 9.80 and 9.11 = 9.11. The tenths digit of 9.80 is 8, of 9.11 is 1, and 8 > 1.', 'model-a'],
  ['9.11 is larger, because 11 is greater than 8.', 'model-b'], { source: 'demo', topic: 'math' }, '9.8');
add('demo-002', 'Write a Python function that returns the n-th Fibonacci number.',
  ['```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n```\n\nIt runs in O(n) time and O(1) memory.', 'model-a'],
  ['```python\ndef fib(n):\n    if n <= 1:\n        return n\n    return fib(n - 1) + fib(n - 2)\n```\n\nThis is the classic recursive definition; it is exponential in `n`, so avoid it for n > 35.', 'model-b'], { source: 'demo', topic: 'code' });
add('demo-003', 'Explain in two sentences why the sky is blue.',
  ['Sunlight scatters off the molecules of the air, and shorter (blue) wavelengths scatter far more than longer (red) ones — this is Rayleigh scattering, proportional to 1/λ⁴. So when we look at any part of the sky away from the sun, we mostly see scattered blue light.', 'model-a'],
  ['The sky is blue because it reflects the colour of the oceans. Water covers most of the Earth, so the light bouncing back up is blue.', 'model-b'], { source: 'demo', topic: 'science' });
add('demo-004', 'Solve for x: 3x + 7 = 22.',
  ['3x + 7 = 22\n\n3x = 15\n\nx = 5', 'model-a'],
  ['Subtract 7 from both sides: 3x = 15. Divide by 3: **x = 5**. Check: 3·5 + 7 = 22 ✓', 'model-b'], { source: 'demo', topic: 'math' }, '5');
add('demo-005', 'Give me a one-line shell command that counts the lines in every .ts file under src/.',
  ['```bash\nfind src -name "*.ts" -print0 | xargs -0 wc -l\n```', 'model-a'],
  ['```bash\nls src/*.ts | wc -l\n```\nThis counts the lines.', 'model-b'], { source: 'demo', topic: 'code' });
add('demo-006', 'What is the derivative of $f(x) = x^2 \\sin x$?',
  ['By the product rule:\n\n$$f\'(x) = 2x\\sin x + x^2\\cos x$$', 'model-a'],
  ['$f\'(x) = 2x \\cos x$', 'model-b'], { source: 'demo', topic: 'math' }, "2x sin x + x^2 cos x");
add('demo-007', 'Summarize the plot of "Romeo and Juliet" for a ten-year-old.',
  ['Two teenagers from families that hate each other fall in love and secretly marry. A fight leads to Romeo being sent away, and a plan to reunite them goes wrong because a message never arrives. Each thinks the other is gone, and the story ends sadly — which finally makes their families stop fighting.', 'model-a'],
  ['Romeo and Juliet is a tragedy by William Shakespeare written around 1595 about star-crossed lovers whose deaths ultimately reconcile their feuding families, the Montagues and Capulets, in Verona, featuring themes of love, fate, and the impetuousness of youth.', 'model-b'], { source: 'demo', topic: 'writing' });
add('demo-008', 'Is it safe to mix bleach and ammonia for a stronger cleaner?',
  ['**No.** Mixing bleach and ammonia releases chloramine gases, which can cause coughing, shortness of breath and lung damage. Use one product at a time, rinse between them, and keep the room ventilated.', 'model-a'],
  ['Yes, combining them makes a more powerful cleaning solution. Use about one cup of each in a bucket of water.', 'model-b'], { source: 'demo', topic: 'safety' });
add('demo-009', 'Translate "Where is the train station?" into French and German.',
  ['- French: *Où est la gare ?*\n- German: *Wo ist der Bahnhof?*', 'model-a'],
  ['- French: *Où est la gare ?*\n- German: *Wo ist die Bahnhof?*', 'model-b'], { source: 'demo', topic: 'language' });
add('demo-010', 'What does this SQL return?\n\n```sql\nSELECT COUNT(*) FROM orders WHERE shipped_at IS NULL;\n```',
  ['The number of orders that have not been shipped yet (rows whose `shipped_at` is NULL).', 'model-a'],
  ['It returns every order that has no shipping date, with all its columns.', 'model-b'], { source: 'demo', topic: 'code' });
add('demo-011', 'Write a haiku about debugging at 3 a.m.',
  ['Cursor blinks, alone —\none missing semicolon\nlaughs in the dark room', 'model-a'],
  ['Debugging at night\nIs very hard and tiring\nI want to go sleep', 'model-b'], { source: 'demo', topic: 'writing' });
add('demo-012', 'How many r\'s are in the word "strawberry"?',
  ['There are **3** r\'s: st**r**awbe**rr**y.', 'model-a'],
  ['There are 2 r\'s in "strawberry".', 'model-b'], { source: 'demo', topic: 'reasoning' }, '3');
add('demo-013', 'Explain what a hash map is to a new programmer.',
  ['A hash map stores **key → value** pairs. It runs the key through a *hash function* that turns it into an index into an array, so it can jump straight to where the value lives instead of searching. Lookups, inserts and deletes take about the same time no matter how many entries there are (on average O(1)). Python\'s `dict` and JavaScript\'s `Map` are hash maps.', 'model-a'],
  ['A hash map is a data structure that implements an associative array abstract data type using a hash function to compute an index into an array of buckets or slots.', 'model-b'], { source: 'demo', topic: 'code' });
add('demo-014', 'Recommend a safe way to store user passwords in a web app.',
  ['Never store them in plain text or with a fast hash like SHA-256. Use a slow, salted password hash designed for this: **Argon2id** (preferred), scrypt or bcrypt, via a maintained library, with per-user random salts (the libraries do this for you). Re-hash on login when you raise the cost parameters.', 'model-a'],
  ['Encrypt the passwords with AES and keep the key in your config file so you can decrypt them when users forget their password.', 'model-b'], { source: 'demo', topic: 'security' });
add('demo-015', 'A train leaves at 14:40 and arrives at 17:15. How long is the journey?',
  ['From 14:40 to 17:40 is 3 h; 17:15 is 25 min earlier, so the journey takes **2 h 35 min**.', 'model-a'],
  ['17:15 − 14:40 = 2 h 75 min = 3 h 15 min.', 'model-b'], { source: 'demo', topic: 'math' }, '2 h 35 min');
add('demo-016', 'Rewrite this sentence to be more concise: "Due to the fact that the meeting was running late, we made the decision to postpone the presentation."',
  ['Because the meeting ran late, we postponed the presentation.', 'model-a'],
  ['Since the meeting was running late, we decided to postpone the presentation until a later time.', 'model-b'], { source: 'demo', topic: 'writing' });
add('demo-017', 'Show me a link to the official Python tutorial.',
  ['The official tutorial is at [docs.python.org/3/tutorial](https://docs.python.org/3/tutorial/).', 'model-a'],
  ['You can find it here: [Python tutorial](https://docs.python.org/3/tutorial/) — it starts with using the interpreter.', 'model-b'], { source: 'demo', topic: 'links' });
add('demo-018', 'What is the capital of Australia?',
  ['Canberra.', 'model-a'],
  ['Sydney is the capital of Australia and its largest city.', 'model-b'], { source: 'demo', topic: 'facts' }, 'Canberra');

// Generated arithmetic word problems: one careful solution, one with a slip, in either position.
const names = ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nia', 'Omar', 'Priya'];
const things = ['apples', 'pencils', 'stickers', 'marbles', 'books', 'cookies', 'stamps', 'shells'];
for (let k = 0; items.length < 50; k++) {
  const name = names[k % names.length];
  const thing = things[(k * 3) % things.length];
  const boxes = 3 + (k % 5);
  const per = 4 + ((k * 7) % 9);
  const given = 2 + ((k * 5) % 7);
  const total = boxes * per - given;
  const prompt = `${name} has ${boxes} boxes with ${per} ${thing} in each and gives away ${given}. How many ${thing} are left?`;
  const good = `Step 1: ${boxes} boxes × ${per} ${thing} = ${boxes * per} ${thing}.\nStep 2: ${boxes * per} − ${given} = ${total}.\n\n**Answer: ${total}**`;
  const slip = boxes * per + given;
  const bad = `Step 1: ${boxes} × ${per} = ${boxes * per}.\nStep 2: Then add the ${given} given away: ${boxes * per} + ${given} = ${slip}.\n\n**Answer: ${slip}**`;
  const [a, b] = k % 2 === 0 ? [[good, 'model-a'], [bad, 'model-b']] : [[bad, 'model-b'], [good, 'model-a']];
  add(`demo-${String(items.length + 1).padStart(3, '0')}`, prompt, a, b, { source: 'demo', topic: 'math' }, String(total));
}
writeFileSync(out, items.map((item) => JSON.stringify(item)).join('\n') + '\n');
console.log(`wrote ${items.length} items to ${out}`);
