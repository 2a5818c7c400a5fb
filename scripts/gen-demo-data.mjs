#!/usr/bin/env node
// Writes the demo project, deterministically, into resources/demo/:
// - items.jsonl (Arbiter item format): 50 pairs (Compare), 4 items of three or four responses (Rank),
//   6 chains of thought with their steps and a reference answer (Steps), 2 single answers (Verdict), and
//   image items: a question about a chart, two text-to-image pairs and four generated images to rank, their
//   PNGs in images/ (drawn by scripts/lib/demoImages.mjs);
// - seed.json: a rubric put in force, and two annotators' labels (ana and ben) that agree on most items and
//   disagree on a few, so the review queue and the agreement dashboard have something to show.
// electron/core/service/demo.ts loads both on a first launch. Pairs come first and are most of the items, so the
// demo opens on Compare.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDemoImages } from './lib/demoImages.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'demo');
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
// Three or four responses to rank.
const rank = (id, prompt, responses, meta) => items.push({ id, prompt, responses: responses.map(([text, model]) => ({ text, model })), metadata: { source: 'demo', ...meta } });
rank('demo-rank-1', 'Why is the sky blue? Answer for a curious ten-year-old, in two or three sentences.', [
  ['Sunlight is made of every colour. Air scatters the **short, blue waves** far more than the long red ones, so blue light reaches your eyes from every part of the sky.', 'model-a'],
  ['The sky is blue because it reflects the ocean.', 'model-b'],
  ['Light from the Sun bumps into tiny bits of air. Blue light bounces around the most — a bit like a pinball — so when you look up, blue is coming at you from everywhere.\n\nAt sunset the light travels through more air, the blue gets scattered away, and you see reds and oranges.', 'model-c'],
  ['Because of *Rayleigh scattering*: the scattered intensity goes as $1/\\lambda^4$, so shorter wavelengths (blue) scatter about 5.5× more than red.', 'model-d'],
], { topic: 'science' });
rank('demo-rank-2', 'Name a good first programming language and say why in one sentence.', [
  ['Python: its syntax reads like English, so you learn ideas, not punctuation.', 'model-a'],
  ['Assembly, to learn how computers really work.', 'model-b'],
  ['JavaScript, because it runs in every browser you already have.', 'model-c'],
], { topic: 'code' });
rank('demo-rank-3', 'Suggest a title for a blog post about learning to bake bread at home.', [
  ['*Flour, Water, Patience: My First Year of Home Baking*', 'model-a'],
  ['Bread', 'model-b'],
  ['*The Loaf Lessons: What Sourdough Taught Me About Failing Well*', 'model-c'],
  ['How I Learned to Bake Bread at Home: A Blog Post', 'model-d'],
], { topic: 'writing' });
rank('demo-rank-4', 'What is 15% of 80?', [
  ['15% of 80 = 0.15 × 80 = **12**.', 'model-a'],
  ['10% of 80 is 8 and 5% is 4, so 15% is **12**.', 'model-b'],
  ['15% of 80 is 15.', 'model-c'],
], { topic: 'math' });

// Chains of thought with their own steps (as PRM800K gives them) and a reference answer: the step screen.
const chain = (id, prompt, steps, reference) =>
  items.push({ id, prompt, responses: [{ text: steps.join('\n'), model: 'model-a', steps }], reference, metadata: { source: 'demo', topic: 'math' } });
chain('demo-chain-1', 'A shop sells pencils at 3 for $0.75. How much do 10 pencils cost?', [
  'One pencil costs $0.75 ÷ 3 = $0.25.',
  'Ten pencils cost 10 × $0.25 = $2.50.',
  '# Answer\n\n$2.50',
], '$2.50');
chain('demo-chain-2', 'Solve for $x$: $2x + 6 = 20$.', [
  'Subtract 6 from both sides: $2x = 14$.',
  'Divide both sides by 2: $x = 8$.',
  '# Answer\n\n8',
], '7');
chain('demo-chain-3', 'A rectangle is 7 cm long and 4 cm wide. What is its perimeter?', [
  'The perimeter of a rectangle is $2(l + w)$.',
  '$2(7 + 4) = 2 × 11 = 22$.',
  '# Answer\n\n22 cm',
], '22 cm');
chain('demo-chain-4', 'How many minutes are there in $3\\tfrac{1}{2}$ hours?', [
  'One hour has 60 minutes.',
  '$3 × 60 = 180$ minutes.',
  'Half an hour is 30 minutes, so $180 + 30 = 200$ minutes.',
  '# Answer\n\n200',
], '210');
chain('demo-chain-5', 'The sum of two consecutive integers is 41. What are they?', [
  'Call them $n$ and $n + 1$.',
  'Then $n + (n + 1) = 41$, so $2n + 1 = 41$.',
  '$2n = 40$, so $n = 20$.',
  '# Answer\n\n20 and 21',
], '20 and 21');
chain('demo-chain-6', 'A train travels 180 km in 2 hours 30 minutes. What is its average speed?', [
  '2 hours 30 minutes is 2.3 hours.',
  '$180 ÷ 2.3 ≈ 78.3$ km/h.',
  '# Answer\n\nabout 78 km/h',
], '72 km/h');

// Single answers without steps: good or bad, on the Verdict screen.
const single = (id, prompt, text) => items.push({ id, prompt, responses: [{ text, model: 'model-b' }], metadata: { source: 'demo', topic: 'facts' } });
single('demo-single-1', 'What is the boiling point of water at sea level, in °C?', 'Water boils at **100 °C** at sea level (212 °F).');
single('demo-single-2', 'Who wrote *Pride and Prejudice*?', '*Pride and Prejudice* was written by Charlotte Brontë in 1813.');

// Images: a question about a figure (two text answers), text-to-image pairs (each response one image),
// and four generated images to rank. Paths are relative to items.jsonl; the import stores the bytes.
await writeDemoImages(dir);
const image = (name) => ({ type: 'image', image: `images/${name}` });
const pictured = (name) => [{ role: 'assistant', content: [image(name)] }];
items.push({
  id: 'demo-vl-1',
  prompt: [{ role: 'user', content: [image('bar-chart.png'), { type: 'text', text: 'Which fruit sold the most in March, and how many more crates than the second best?' }] }],
  responses: [
    { text: 'Apples sold the most (42 crates), 7 more than Pears (35).', model: 'vlm-a' },
    { text: 'Apples sold the most with 42 crates, 15 more than Figs.', model: 'vlm-b' },
  ],
  metadata: { source: 'demo', topic: 'figures' },
});
items.push({ id: 'demo-t2i-1', prompt: 'A red circle above a blue square, on a white background.', responses: [{ text: pictured('t2i-circle-a.png'), model: 'gen-a' }, { text: pictured('t2i-circle-b.png'), model: 'gen-b' }], metadata: { source: 'demo', topic: 'text-to-image' } });
items.push({ id: 'demo-t2i-2', prompt: 'Three yellow stars in a row on a night sky.', responses: [{ text: pictured('t2i-stars-a.png'), model: 'gen-a' }, { text: pictured('t2i-stars-b.png'), model: 'gen-b' }], metadata: { source: 'demo', topic: 'text-to-image' } });
items.push({ id: 'demo-t2i-rank', prompt: 'A green triangle inside a circle.', responses: [1, 2, 3, 4].map((k) => ({ text: pictured(`t2i-tri-${k}.png`), model: `gen-${'abcd'[k - 1]}` })), metadata: { source: 'demo', topic: 'text-to-image' } });
const imageSha = (name) => createHash('sha256').update(readFileSync(join(dir, 'images', name))).digest('hex');

writeFileSync(join(dir, 'items.jsonl'), items.map((item) => JSON.stringify(item)).join('\n') + '\n');

// The rubric in force, and two annotators' labels. Choices are in source order (A is the first response);
// rankings are groups of response indexes, best first; step ratings are +1 / 0 / -1 up to the first error.
const seed = {
  rubric: {
    name: 'demo',
    criteria: [
      { key: 'correct', description: 'Is everything the response states **true**?', scale: { type: 'binary' }, weight: 2, required: false, hotkey: 'c' },
      { key: 'helpful', description: 'How well does it answer what was asked (1: not at all, 5: fully)?', scale: { type: 'likert', min: 1, max: 5 }, weight: 1, required: false, hotkey: 'h' },
      { key: 'tone', description: 'The tone for the asker.', scale: { type: 'categories', values: ['too terse', 'right', 'too wordy'] }, weight: 0, required: false },
    ],
  },
  labels: [
    // Pairs: agreement on most, three disagreements (the review queue's first items).
    ...['demo-001', 'demo-003', 'demo-004', 'demo-008', 'demo-012', 'demo-014'].flatMap((item) => [
      { annotator: 'ana', task: 'pairwise', item, choice: item === 'demo-004' ? 'B' : 'A', strength: 2 },
      { annotator: 'ben', task: 'pairwise', item, choice: item === 'demo-004' ? 'B' : 'A', strength: item === 'demo-008' ? 3 : 2 },
    ]),
    { annotator: 'ana', task: 'pairwise', item: 'demo-009', choice: 'A', strength: 1 },
    { annotator: 'ben', task: 'pairwise', item: 'demo-009', choice: 'B', strength: 1 },
    { annotator: 'ana', task: 'pairwise', item: 'demo-016', choice: 'A', strength: 2 },
    { annotator: 'ben', task: 'pairwise', item: 'demo-016', choice: 'tie', strength: null },
    { annotator: 'ana', task: 'pairwise', item: 'demo-017', choice: 'tie', strength: null },
    { annotator: 'ben', task: 'pairwise', item: 'demo-017', choice: 'B', strength: 2 },
    // Text-to-image: both prefer the right stars; ana boxes the extra, smeared star and says what is wrong.
    {
      annotator: 'ana', task: 'pairwise', item: 'demo-t2i-2', choice: 'A', strength: 3,
      regions: [{ image: imageSha('t2i-stars-b.png'), at: 1, kind: 'box', box: [0.72, 0.3, 0.99, 0.72], tag: 'hallucinated object', note: 'a fourth star, half smeared' }],
    },
    {
      annotator: 'ben', task: 'pairwise', item: 'demo-t2i-2', choice: 'A', strength: 2,
      regions: [{ image: imageSha('t2i-stars-b.png'), at: 1, kind: 'box', box: [0.74, 0.28, 0.98, 0.75], tag: 'hallucinated object' }],
    },
    // Rankings: the same best, different orders below it.
    { annotator: 'ana', task: 'ranking', item: 'demo-rank-1', ranking: [[0], [3], [2], [1]] },
    { annotator: 'ben', task: 'ranking', item: 'demo-rank-1', ranking: [[2], [0, 3], [1]] },
    // Steps: both find the error in chain 2; on chain 4 they put the first error at different steps.
    { annotator: 'ana', task: 'steps', item: 'demo-chain-2', ratings: [1, -1, null], firstError: 1 },
    { annotator: 'ben', task: 'steps', item: 'demo-chain-2', ratings: [1, -1, null], firstError: 1 },
    { annotator: 'ana', task: 'steps', item: 'demo-chain-4', ratings: [1, 1, -1, null], firstError: 2 },
    { annotator: 'ben', task: 'steps', item: 'demo-chain-4', ratings: [1, -1, null, null], firstError: 1 },
    // Verdicts: they disagree on one answer.
    { annotator: 'ana', task: 'verdict', item: 'demo-single-2', verdict: 'bad' },
    { annotator: 'ben', task: 'verdict', item: 'demo-single-2', verdict: 'good' },
  ],
};
writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed, null, 2) + '\n');
const count = (n) => items.filter((i) => i.responses.length === n).length;
console.log(`wrote ${items.length} items (${count(2)} pairs, ${items.length - count(2) - count(1)} to rank, ${count(1)} single responses) and ${seed.labels.length} labels to ${dir}`);
