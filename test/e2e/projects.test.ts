// Renaming and deleting projects on the start screen, from the keyboard: ↑/↓ choose a row, F2 (or r)
// renames inline with the API's own sentence for a refused name, Del asks inline and deletes after a
// backup, Esc cancels. The list follows, the database agrees, and a reload shows the same.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const PAIRS = [
  { prompt: 'Capital of France?', chosen: 'Paris.', rejected: 'Lyon.' },
  { prompt: 'Add 2 and 3.', chosen: '5', rejected: '6' },
  { prompt: 'A primary colour?', chosen: 'Red.', rejected: 'Green.' },
];

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

/** The project names the page lists, top to bottom. */
function listed(): Promise<(string | null)[]> {
  return page.getByTestId('project-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-project')));
}

async function apiNames(): Promise<string[]> {
  return (await host.api<{ name: string }[]>('listProjects', {})).map((p) => p.name);
}

/** The project of the row that has the keyboard focus (or holds it), and of the selected row. */
function focusedRow(): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.closest('[data-testid="project-row"]')?.getAttribute('data-project') ?? null);
}

function row(name: string) {
  return page.locator(`[data-testid="project-row"][data-project="${name}"]`);
}

beforeAll(async () => {
  host = await startHost();
  // Seeded through the command line into the database the host has open (WAL: both may write).
  const file = writeJsonl(host.home, 'pairs.jsonl', PAIRS);
  for (const project of ['alpha', 'beta', 'gamma']) {
    const result = spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'import', file, '--project', project, '--db', host.dbPath], {
      encoding: 'utf8',
      env: { ...process.env, ARBITER_NO_DEMO: '1' },
    });
    if (result.status !== 0) throw new Error(`seeding ${project} failed: ${result.stderr}`);
  }
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-projects' }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('renaming and deleting projects from the keyboard', () => {
  it('chooses rows with ↑/↓ and shows the keys on the chosen row', async () => {
    await expect.poll(listed).toEqual(['alpha', 'beta', 'gamma']);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedRow).toBe('alpha');
    expect(await row('alpha').getAttribute('data-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedRow).toBe('beta');
    expect(await row('alpha').getAttribute('data-selected')).toBe('false');
    // The chosen row's controls carry their keys.
    expect(await row('beta').getByTestId('rename-project').innerText()).toMatch(/Rename\s*F2/);
    expect(await row('beta').getByTestId('delete-project').innerText()).toMatch(/Delete\s*Del/);
    expect(await page.getByTestId('project-keys').innerText()).toMatch(/F2.*rename/s);
  });

  it('Esc cancels a rename; a name the API refuses is explained inline and nothing changes', async () => {
    await page.keyboard.press('r');
    const input = row('beta').getByTestId('rename-input');
    await input.waitFor();
    // The r that opened the box did not type itself into it.
    expect(await input.inputValue()).toBe('beta');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rename-input');
    await page.keyboard.press('Escape');
    await expect.poll(() => input.count()).toBe(0);
    await expect.poll(focusedRow).toBe('beta');

    await page.keyboard.press('F2');
    await input.waitFor();
    await page.keyboard.type('beta/2'); // the whole name is selected, so typing replaces it
    expect(await input.inputValue()).toBe('beta/2');
    await page.keyboard.press('Enter');
    await expect.poll(() => row('beta').getByTestId('rename-error').innerText()).toBe('project name has a slash or a control character');
    // A name another project has: the service's sentence, shown the same way.
    await input.fill('gamma');
    await page.keyboard.press('Enter');
    await expect.poll(() => row('beta').getByTestId('rename-error').innerText()).toMatch(/A project named "gamma" already exists/);
    expect(await apiNames()).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('renames with F2, type, Enter: the list follows and the row keeps the focus', async () => {
    const input = row('beta').getByTestId('rename-input');
    await input.fill('');
    await page.keyboard.type('  beta renamed  ');
    await page.keyboard.press('Enter');
    await expect.poll(listed).toEqual(['alpha', 'beta renamed', 'gamma']);
    expect(await apiNames()).toEqual(['alpha', 'beta renamed', 'gamma']);
    await expect.poll(focusedRow).toBe('beta renamed');
    expect(await page.getByTestId('rename-input').count()).toBe(0);
  });

  it('deletes after an inline confirm (Esc first backs out), and names the backup it kept', async () => {
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedRow).toBe('gamma');
    await page.keyboard.press('Delete');
    const confirm = row('gamma').getByTestId('delete-confirm');
    await confirm.waitFor();
    const text = await confirm.innerText();
    expect(text).toMatch(/Delete “gamma” and its 3 items/);
    expect(text).toMatch(/backup/i);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('delete-confirm-button');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await expect.poll(focusedRow).toBe('gamma');
    expect(await apiNames()).toEqual(['alpha', 'beta renamed', 'gamma']);

    await page.keyboard.press('Delete');
    await confirm.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('delete-confirm-button');
    await page.keyboard.press('Enter');
    await expect.poll(listed).toEqual(['alpha', 'beta renamed']);
    const notice = await page.getByTestId('delete-notice').innerText();
    expect(notice).toMatch(/Deleted “gamma”/);
    const backup = (await page.getByTestId('delete-backup').innerText()).trim();
    const file = /before-delete-gamma-\d{8}T\d{6}\.sqlite$/.exec(backup)?.[0];
    expect(file, backup).toBeTruthy();
    // The page learns no path on the server (issue 13, finding 15): the folder beside the database, by name.
    expect(backup).toBe(`backups/${file!}`);
    expect(existsSync(join(host.home, 'backups', file!))).toBe(true);
    expect(await apiNames()).toEqual(['alpha', 'beta renamed']);
    // The focus goes to the row that took the deleted one's place.
    await expect.poll(focusedRow).toBe('beta renamed');
  });

  it('keeps the changes after a reload, with no page errors', async () => {
    await page.reload();
    await page.getByTestId('header').waitFor();
    await expect.poll(listed).toEqual(['alpha', 'beta renamed']);
    expect(await page.getByText('gamma').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
