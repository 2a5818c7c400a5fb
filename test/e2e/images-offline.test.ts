// No network (issue 15, "Must hold"): a project whose items hold stored images and http(s) image URLs is
// opened and labeled by keyboard in a real Chromium page, and the page requests nothing outside its own
// origin: the stored images come from the host's image route (with the token header, shown from blob:
// URLs), and no http(s) image URL is ever requested (an image part's URL, an OpenAI image_url, a markdown
// image in a response), not even one the CSP would then block (page.on('request') sees those too).
import type { Browser, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'offline images';
const ANNOTATOR = 'e2e-offline';
const URLS = ['https://images.example.com/cat.png', 'http://images.example.com/generated.png', 'https://tracker.example.com/pixel.png'];

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const requests: Request[] = [];
const ids = new Map<string, number>();

const dataUri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const square = (background: string) => sharp({ create: { width: 64, height: 48, channels: 3, background } }).png().toBuffer();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const [red, green] = await Promise.all([square('#c33'), square('#3a3')]);
  const items = [
    {
      id: 'question',
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Which of the two pictures is red?' },
            { type: 'image', image: dataUri(red) },
            { type: 'image_url', image_url: { url: URLS[0] } },
          ],
        },
      ],
      responses: [{ text: `The first. ![see here](${URLS[2]})` }, { text: 'The second.' }],
    },
    {
      id: 'generated',
      prompt: 'A green rectangle.',
      responses: [
        { text: [{ role: 'assistant', content: [{ type: 'image', image: dataUri(green) }] }] },
        { text: [{ role: 'assistant', content: [{ type: 'image', url: URLS[1] }] }] },
      ],
    },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'offline.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  // From the first request of the project on (the start screen is plain page assets).
  page.on('request', (request) => requests.push(request));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** The natural widths of the painted images in a part of the compare screen (0: not decoded). */
function painted(scope: string): Promise<number[]> {
  return page.locator(`${scope} [data-testid="image-view"][data-state="shown"] img`).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
}

async function labeled(external: string): Promise<number> {
  const history = await host.api<{ annotator: string; choice: string | null }[]>('labelHistory', { project: PROJECT, itemId: ids.get(external) });
  return history.filter((r) => r.annotator === ANNOTATOR && r.choice).length;
}

describe('image items offline', () => {
  it('opens the project, shows its stored images and says the http ones are not available offline', async () => {
    await page.locator(`[data-testid="project-row"][data-project="${PROJECT}"]`).click();
    await page.keyboard.press('Enter');
    const compare = page.getByTestId('compare');
    await expect.poll(() => compare.getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get('question')));
    await expect.poll(() => painted('[data-testid="prompt"]'), { timeout: 15_000 }).toEqual([64]);
    const unavailable = page.locator('[data-testid="prompt"] [data-testid="image-unavailable"]');
    expect(await unavailable.innerText()).toMatch(/not available offline/);
    expect(await unavailable.getByTestId('image-unavailable-url').innerText()).toBe(URLS[0]);
  });

  it('labels both items by keyboard, the second showing its stored image beside the unavailable one', async () => {
    const compare = page.getByTestId('compare');
    await page.keyboard.press('1');
    await expect.poll(() => labeled('question'), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => compare.getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get('generated')));
    await expect.poll(() => painted('[data-testid="compare"]'), { timeout: 15_000 }).toEqual([64]);
    expect(await page.locator('[data-testid="compare"] [data-testid="image-unavailable"]').count()).toBe(1);
    await page.keyboard.press('2');
    await expect.poll(() => labeled('generated'), { timeout: 10_000 }).toBe(1);
  });

  it('requested nothing outside its own origin, never an http(s) image URL, and fetched the stored images with the token', async () => {
    const urls = requests.map((r) => r.url());
    expect(urls.filter((url) => !url.startsWith(`${host.origin}/`) && !url.startsWith('blob:'))).toEqual([]);
    for (const url of URLS) expect(urls.filter((u) => u.includes(new URL(url).host))).toEqual([]);
    const images = requests.filter((r) => new URL(r.url()).pathname.startsWith('/images/'));
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const request of images) expect(request.headers()['x-arbiter-token']).toBe(host.token);
    expect(problems).toEqual([]);
  });
});
