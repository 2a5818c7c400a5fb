// Exports through the UI, read back from the file the browser downloaded: a TRL file of a project with
// a multi-turn HH item among single-turn ones holds one prompt shape (every prompt an HH transcript),
// and says so; every OpenRLHF line carries a numeric margin, 0 where no label recorded a strength.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-export';
const PROJECT = 'e2e shapes';
const turn = (human: string, chosen: string, rejected: string) => ({ chosen: `${human}\n\nAssistant: ${chosen}`, rejected: `${human}\n\nAssistant: ${rejected}` });
const HH = [
  turn('\n\nHuman: What is the capital of France?', 'Paris.', 'London.'),
  turn('\n\nHuman: Can you help me bake bread?\n\nAssistant: Sure. What kind?\n\nHuman: Sourdough.', 'You will need a starter.', 'Just buy some.'),
  turn('\n\nHuman: Name a prime number.', 'Seven.', 'Eight.'),
  turn('\n\nHuman: How many legs does a spider have?', 'Eight.', 'Six.'),
];

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

/** Exports in `format` through the Export panel and returns the downloaded file's records and the summary note. */
async function exportViaUi(format: string) {
  await page.getByTestId('export-format').selectOption(format);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await page.getByTestId('export-summary').waitFor();
  const download = await downloading;
  const records = readFileSync((await download.path())!, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { records, note: await page.getByTestId('export-note').innerText() };
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'hh.jsonl', HH));
  await page.getByTestId('import-result').waitFor();
  // One item labeled with a strength: its margin is that strength; the file's own preferences have none.
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
  await host.api('saveLabel', { project: PROJECT, annotator: ANNOTATOR, itemId: rows[0]!.id, choice: 'A', strength: 3, shownOrder: [0, 1] });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('exports hold one prompt shape and what their trainer needs', () => {
  it('TRL: one multi-turn item makes every prompt an HH transcript, and the summary says so', async () => {
    const { records, note } = await exportViaUi('trl');
    expect(records).toHaveLength(4);
    for (const record of records) {
      expect(String(record.prompt)).toMatch(/^\n\nHuman: [\s\S]*\n\nAssistant:$/);
      expect(String(record.chosen)).toMatch(/^ /);
    }
    expect(records[0]).toEqual({ prompt: '\n\nHuman: What is the capital of France?\n\nAssistant:', chosen: ' Paris.', rejected: ' London.' });
    expect(note).toMatch(/Every prompt is an HH-style transcript/);
    expect(note).toMatch(/1 prompt\(s\) are conversations, and the 3 single-turn prompt\(s\) were wrapped as one human turn/);
    expect(note).toMatch(/TRL conversational \(trl-chat\)/);
  });

  it('OpenRLHF: every line carries a numeric margin, 0 where no label recorded a strength', async () => {
    const { records, note } = await exportViaUi('openrlhf');
    expect(records).toHaveLength(4);
    for (const record of records) expect(typeof record.margin).toBe('number');
    expect(records.map((r) => r.margin)).toEqual([3, 0, 0, 0]);
    expect(note).toMatch(/3 line\(s\) have "margin": 0 because no label recorded a strength/);
    expect(problems).toEqual([]);
  });
});
