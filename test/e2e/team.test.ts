// Working as a team from the datasets screen: merge a teammate's labels file (idempotent, unknown items
// reported), export "my labels", and split the work (labeling order, overlap) so the compare screen
// walks only this annotator's share.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'team';
const ME = 'e2e-ann';
let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const items = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, prompt: `Team question ${i}?`, responses: [{ text: `First ${i}.` }, { text: `Second ${i}.` }] }));
  await host.api('importContent', { project: PROJECT, fileName: 'team.jsonl', content: items.map((i) => JSON.stringify(i)).join('\n') + '\n', format: 'arbiter', createProject: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openDatasets(page: Page) {
  await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/datasets`), PROJECT);
  await page.getByTestId('label-exchange').waitFor();
}

const teammateFile = () =>
  Buffer.from(
    ['q0', 'q1', 'q2', 'q-missing']
      .map((item, i) => JSON.stringify({ id: `bob-${i}`, item, annotator: 'bob', annotator_uuid: '0191d5a0-7c1e-7000-8000-00000000000b', choice: 'B', strength: 2, created_at: '2026-11-22T10:00:00Z' }))
      .join('\n') + '\n',
  );

describe('team work from the datasets screen', () => {
  it('merges a teammate’s labels, reports the unknown item, and adds nothing the second time', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ME });
    await openDatasets(page);
    const file = { name: 'bob-labels.jsonl', mimeType: 'application/x-ndjson', buffer: teammateFile() };
    await page.getByTestId('merge-labels-input').setInputFiles(file);
    const summary = page.getByTestId('merge-summary');
    await expect.poll(() => summary.innerText()).toMatch(/Merged 3 new revisions from bob-labels\.jsonl; 0 were here already/);
    expect(await page.getByTestId('merge-unmatched').innerText()).toMatch(/1 revision is for items this project does not have .*q-missing \(line 4\)/s);
    const annotators = await host.api<{ name: string; labeled: number }[]>('annotators', { project: PROJECT });
    expect(annotators.find((a) => a.name === 'bob')?.labeled).toBe(3);

    await page.getByTestId('merge-labels-input').setInputFiles(file);
    await expect.poll(() => summary.innerText()).toMatch(/Merged 0 new revisions .*; 3 were here already/);

    // A revision id stored here for another label (bob-0 was B): said by line, not merged.
    const edited = JSON.stringify({ id: 'bob-0', item: 'q0', annotator: 'bob', annotator_uuid: '0191d5a0-7c1e-7000-8000-00000000000b', choice: 'A', strength: 2, created_at: '2026-11-22T10:00:00Z' });
    await page.getByTestId('merge-labels-input').setInputFiles({ ...file, name: 'bob-edited.jsonl', buffer: Buffer.from(`${edited}\n`) });
    await expect.poll(() => summary.innerText()).toMatch(/Merged 0 new revisions from bob-edited\.jsonl/);
    expect(await page.getByTestId('merge-reused-ids').innerText()).toMatch(/1 line reuses a revision id this project holds for a different label, so it was not merged: line 1\./);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('exports only this annotator’s labels as a download', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    const item = await host.api<{ id: number }>('nextItem', { project: PROJECT, annotator: ME });
    await host.api('saveLabel', { project: PROJECT, annotator: ME, itemId: item.id, choice: 'A', shownOrder: [0, 1] });
    await openDatasets(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-my-labels').click()]);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks as Buffer[]).toString('utf8'));
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { annotator: string; annotator_uuid: string; choice: string });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ annotator: ME, choice: 'A' });
    expect(lines[0]!.annotator_uuid).toMatch(/^[0-9a-f-]{36}$/);
    await page.context().close();
  });

  it('splits the work: with a team of three and overlap 1, the compare screen walks only this annotator’s items', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ME });
    await openDatasets(page);
    const panel = page.getByTestId('work-split');
    await panel.getByTestId('order-select').selectOption('random');
    await panel.getByTestId('team-input').fill(`${ME}, bob, cat`);
    await panel.getByTestId('team-input').press('Enter');
    await expect.poll(async () => (await host.api<{ settings: { team: string[] } }>('getProject', { project: PROJECT })).settings.team).toEqual([ME, 'bob', 'cat']);
    await panel.getByTestId('overlap-input').fill('1');
    await expect.poll(() => panel.innerText()).toMatch(/Each item goes to 1 of 3/);
    const settings = (await host.api<{ settings: { order: string; overlap: number } }>('getProject', { project: PROJECT })).settings;
    expect(settings).toMatchObject({ order: 'random', overlap: 1 });

    // Walk the compare screen with the host: the items it offers are this annotator's share, each once.
    const mine: string[] = [];
    let after: number | undefined;
    for (;;) {
      const next = await host.api<{ externalId: string; seq: number } | null>('nextItem', { project: PROJECT, annotator: ME, afterSeq: after, unlabeledOnly: false });
      if (!next || mine.includes(next.externalId)) break;
      mine.push(next.externalId);
      after = next.seq;
    }
    const everyone = await Promise.all(
      ['bob', 'cat'].map(async (who) => {
        const seen: string[] = [];
        let at: number | undefined;
        for (;;) {
          const next = await host.api<{ externalId: string; seq: number } | null>('nextItem', { project: PROJECT, annotator: who, afterSeq: at, unlabeledOnly: false });
          if (!next || seen.includes(next.externalId)) return seen;
          seen.push(next.externalId);
          at = next.seq;
        }
      }),
    );
    expect([...mine, ...everyone.flat()].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `q${i}`).sort());
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(12);
    // The compare screen opens on one of them.
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
    await page.getByTestId('response-body-left').waitFor();
    const shown = await page.getByTestId('compare').getAttribute('data-item-id');
    const ids = await Promise.all(mine.map(async (ext) => (await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, annotator: ME, limit: 100 })).rows.find((r) => r.externalId === ext)!.id));
    expect(ids.map(String)).toContain(shown);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
