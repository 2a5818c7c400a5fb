// End-to-end helpers: start the browser host on a throwaway database, launch Debian's Chromium,
// open the app with the launch token, and talk to the API directly when a test needs ground truth.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface Host {
  url: string;
  origin: string;
  token: string;
  home: string;
  dbPath: string;
  output: () => string;
  stop(): Promise<void>;
  api<T = unknown>(name: string, input: unknown): Promise<T>;
}

/**
 * Spawns `node bin/arbiter.mjs serve --db <tmp>/arbiter.db --port 0` with ARBITER_HOME=<tmp> and
 * reads the URL it prints. `ARBITER_E2E_BIN` may name another entry script (same arguments).
 */
export async function startHost(options: { demo?: boolean } = {}): Promise<Host> {
  const home = mkdtempSync(join(tmpdir(), 'arbiter-e2e-'));
  const dbPath = join(home, 'arbiter.db');
  const bin = process.env.ARBITER_E2E_BIN ?? join(ROOT, 'bin', 'arbiter.mjs');
  const env: NodeJS.ProcessEnv = { ...process.env, ARBITER_HOME: home };
  if (!options.demo) env.ARBITER_NO_DEMO = '1';
  else delete env.ARBITER_NO_DEMO;
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve', '--db', dbPath, '--port', '0'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`The host printed no URL within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The host exited with ${code} before printing its URL:\n${output}`));
    });
  });
  const parsed = new URL(url);
  const token = new URLSearchParams(parsed.hash.replace(/^#/, '')).get('token') ?? '';
  const origin = parsed.origin;
  return {
    url,
    origin,
    token,
    home,
    dbPath,
    output: () => output,
    async api<T>(name: string, input: unknown): Promise<T> {
      const response = await fetch(`${origin}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-arbiter-token': token },
        body: JSON.stringify(input),
      });
      const body = (await response.json()) as { ok: boolean; result?: T; error?: { message: string } };
      if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
      return body.result as T;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface OpenedPage {
  page: Page;
  /** Uncaught errors and console errors the page produced (CSP violations included). */
  problems: string[];
}

/** Opens the app at the host's URL with a fixed annotator name, at a given window size. */
export async function openApp(
  browser: Browser,
  host: Host,
  options: { width?: number; height?: number; annotator?: string; theme?: 'light' | 'dark'; acceptDownloads?: boolean } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1400, height: options.height ?? 900 },
    acceptDownloads: options.acceptDownloads ?? true,
    colorScheme: options.theme ?? 'light',
  });
  if (options.annotator || options.theme) {
    await context.addInitScript(
      ([annotator, theme]) => {
        if (annotator && !localStorage.getItem('arbiter.annotator')) localStorage.setItem('arbiter.annotator', annotator);
        if (theme && !localStorage.getItem('arbiter.theme')) localStorage.setItem('arbiter.theme', theme);
      },
      [options.annotator ?? '', options.theme ?? ''] as const,
    );
  }
  await context.addInitScript(refuseListedApiCalls);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // API answers of 4xx (an invalid file, say) are expected; the browser logs them anyway.
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  await page.goto(host.url);
  await page.getByTestId('header').waitFor();
  return { page, problems };
}

/** Writes records as JSONL (one JSON value per line, or raw strings as they are) and returns the path. */
export function writeJsonl(dir: string, name: string, lines: (string | object)[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

/** Creates a project through the start screen and lands on its Datasets screen. */
export async function createProjectViaUi(page: Page, name: string): Promise<void> {
  await page.getByTestId('new-project-name').fill(name);
  await page.getByTestId('create-project').click();
  await page.getByTestId('import-panel').waitFor();
}

/** Imports a file through the Datasets screen's file picker and waits for the summary. */
export async function importViaUi(page: Page, path: string, options: { skipInvalid?: boolean } = {}): Promise<void> {
  await page.getByTestId('import-file').setInputFiles(path);
  await page.getByTestId('import-detected').getByText(/Detected|not recognised/).waitFor();
  if (options.skipInvalid) await page.getByTestId('import-skip-invalid').check();
  await page.getByTestId('import-button').click();
  await page.getByTestId('import-result').or(page.getByTestId('import-failure')).waitFor();
}

const REFUSED_KEY = 'e2e.refusedApi';

/**
 * Runs in the page before the app: API calls named in sessionStorage fail as an unreachable host does
 * (fetch rejects with a TypeError). Done in the page rather than with page.route, whose interception
 * let a save through once on CI; sessionStorage keeps the outage across a reload of the tab.
 */
function refuseListedApiCalls(): void {
  const realFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const name = /\/api\/(\w+)$/.exec(url)?.[1];
    const refused = JSON.parse(sessionStorage.getItem('e2e.refusedApi') ?? '[]') as string[];
    if (name && refused.includes(name)) return Promise.reject(new TypeError('Failed to fetch'));
    return realFetch(input, init);
  };
}

/** Makes the page's calls to these API methods fail as if the host were down, until `restoreApi`. */
export async function refuseApi(page: Page, ...names: string[]): Promise<void> {
  await page.evaluate(([key, list]) => sessionStorage.setItem(key, JSON.stringify(list)), [REFUSED_KEY, names] as const);
}

export async function restoreApi(page: Page): Promise<void> {
  await page.evaluate((key) => sessionStorage.removeItem(key), REFUSED_KEY);
}
