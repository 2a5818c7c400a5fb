// One Content-Security-Policy, everywhere the page is shown: the header the browser host sends and the
// header Electron's app:// protocol sends are the same string (shared/csp.ts), and the built index.html's
// meta tag is that policy less `frame-ancestors` (which a meta tag cannot carry). And loading the app breaks none of it: no `securitypolicyviolation` and no CSP console
// error (zod's `new Function` probe used to trip one on every load until the renderer set jitless).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRenderer } from '../../electron/main/protocol';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

function metaCsp(html: string): string | undefined {
  const tag = /<meta[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.exec(html)?.[0];
  return tag ? /content="([^"]*)"/.exec(tag)?.[1]?.replace(/&#39;|&apos;/g, "'") : undefined;
}

describe('Content-Security-Policy', () => {
  it('the built index.html carries the policy the host sends as its header', async () => {
    const built = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8');
    expect(metaCsp(built)).toBe(META_CONTENT_SECURITY_POLICY);
    expect(`${META_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`).toBe(CONTENT_SECURITY_POLICY);
    const response = await fetch(host.url);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(metaCsp(await response.text())).toBe(META_CONTENT_SECURITY_POLICY);
  });

  it("Electron's app:// protocol serves the built page with the same header, and every asset with a known type", async () => {
    const renderer = join(ROOT, 'out', 'renderer');
    const page = await serveRenderer(renderer, { url: 'app://arbiter/', method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(metaCsp(await page.text())).toBe(META_CONTENT_SECURITY_POLICY);
    const assets = readdirSync(join(renderer, 'assets')).filter((f) => !f.endsWith('.map'));
    expect(assets.length).toBeGreaterThan(0);
    for (const file of assets) {
      const served = await serveRenderer(renderer, { url: `app://arbiter/assets/${encodeURIComponent(file)}`, method: 'HEAD' });
      expect(served.status, file).toBe(200);
      expect(served.headers.get('content-type'), file).not.toBe('application/octet-stream');
    }
  });

  it('loading the app reports no CSP violation and logs no CSP error', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-csp' });
    // The listener must be there before the app's scripts run: reload with it in place.
    await page.context().addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const logged: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-eval/i.test(message.text())) logged.push(message.text());
    });
    await page.reload();
    await page.getByTestId('header').waitFor();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
    const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    expect(violations).toEqual([]);
    expect(logged).toEqual([]);
    expect(problems.filter((p) => /Content Security Policy|unsafe-eval/i.test(p))).toEqual([]);
  });
});
