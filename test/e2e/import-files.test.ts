// Importing what people download, through the file picker: a gzip-compressed JSON Lines file, a JSON
// array and a parquet file, each previewed and imported; a big file travels in pieces, never as one
// request body holding the whole file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, launchBrowser, openApp, startHost, type Host } from './helpers';

let host: Host;
let browser: Browser;
let page: Page;

const pair = (i: number) => ({ prompt: `Question ${i}: name a colour.`, chosen: ` Blue ${i}.`, rejected: ` Loud ${i}.` });

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page } = await openApp(browser, host, { annotator: 'e2e-files' }));
  await createProjectViaUi(page, 'downloads');
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function importThroughPicker(path: string, expected: RegExp): Promise<string> {
  await page.getByTestId('import-file').setInputFiles(path);
  await expect.poll(() => page.getByTestId('import-detected').innerText(), { timeout: 20_000 }).toMatch(/Detected/);
  expect(await page.getByTestId('import-detected').innerText()).toMatch(/trl/);
  await page.getByTestId('import-preview').waitFor();
  await page.getByTestId('import-button').click();
  const result = page.getByTestId('import-result');
  await expect.poll(() => result.innerText().catch(() => ''), { timeout: 60_000 }).toMatch(expected);
  return result.innerText();
}

describe('the file picker reads what people download', () => {
  it('imports a .jsonl.gz, previewed after it arrives', async () => {
    const path = join(host.home, 'pairs.jsonl.gz');
    writeFileSync(path, gzipSync(Array.from({ length: 30 }, (_, i) => JSON.stringify(pair(i))).join('\n') + '\n'));
    const text = await importThroughPicker(path, /Imported 30 new items/);
    expect(text).toContain('pairs.jsonl.gz');
  });

  it('imports a .json array', async () => {
    const path = join(host.home, 'pairs.json');
    writeFileSync(path, JSON.stringify(Array.from({ length: 12 }, (_, i) => pair(100 + i)), null, 2));
    await importThroughPicker(path, /Imported 12 new items/);
  });

  it('imports a .parquet file', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => pair(200 + i));
    const buffer = parquetWriteBuffer({
      columnData: (['prompt', 'chosen', 'rejected'] as const).map((name) => ({ name, data: rows.map((r) => r[name]), type: 'STRING' as const })),
    });
    const path = join(host.home, 'pairs.parquet');
    writeFileSync(path, Buffer.from(buffer));
    await importThroughPicker(path, /Imported 20 new items/);
    expect(await host.api<{ items: number }>('stats', { project: 'downloads' })).toMatchObject({ items: 62 });
  });

  it('sends a 12 MB file in pieces of at most 4 MiB, never the whole file in one request', async () => {
    const bodies: number[] = [];
    const record = (request: { url(): string; postData(): string | null }) => {
      if (request.url().includes('/api/')) bodies.push(request.postData()?.length ?? 0);
    };
    page.on('request', record);
    const path = join(host.home, 'big.jsonl');
    const filler = 'x'.repeat(400);
    writeFileSync(path, Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ ...pair(1000 + i), note: filler })).join('\n') + '\n');
    await importThroughPicker(path, /Imported 30,000 new items/);
    page.off('request', record);
    const size = 30_000 * 470;
    expect(Math.max(...bodies)).toBeLessThan(6 * 1024 * 1024);
    expect(Math.max(...bodies)).toBeLessThan(size / 2);
    expect(bodies.filter((b) => b > 1024 * 1024).length).toBeGreaterThanOrEqual(3);
  });
});
