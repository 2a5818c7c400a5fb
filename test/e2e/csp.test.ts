// One Content-Security-Policy, everywhere the page is shown: the header the browser host sends and the
// header Electron's app:// protocol sends are the same string (shared/csp.ts), and the built index.html's
// meta tag is that policy less `frame-ancestors` (which a meta tag cannot carry). And loading the app breaks none of it: no `securitypolicyviolation` and no CSP console
// error (zod's `new Function` probe used to trip one on every load until the renderer set jitless).
// Images come from the app's own origin and blob: only (issue 15): a data: or remote image is refused.
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

  it("takes images from the app's own origin and blob: only: a data: image and a remote one are refused before any request", async () => {
    const { page } = await openApp(browser, host, { annotator: 'e2e-csp-images' });
    // Chromium announces a request the CSP then blocks; what matters is that none reaches the network.
    const answered: string[] = [];
    const failed: string[] = [];
    page.on('response', (response) => answered.push(response.url()));
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
      // A 1 × 1 PNG.
      const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const load = (src: string) =>
        new Promise<string>((done) => {
          const img = new Image();
          img.onload = () => done('loaded');
          img.onerror = () => done('refused');
          img.src = src;
        });
      const blob = await load(URL.createObjectURL(new Blob([bytes], { type: 'image/png' })));
      const data = await load(`data:image/png;base64,${base64}`);
      const remote = await load('http://images.example.invalid/cat.png');
      // Violation events are dispatched after the load fails: wait for both (at most a second).
      for (let i = 0; i < 100 && violations.length < 2; i++) await new Promise((done) => setTimeout(done, 10));
      return { blob, data, remote, violations };
    });
    expect(outcome).toMatchObject({ blob: 'loaded', data: 'refused', remote: 'refused' });
    expect(outcome.violations).toEqual(expect.arrayContaining([expect.stringMatching(/^img-src data/), expect.stringMatching(/^img-src http:\/\/images\.example\.invalid/)]));
    expect(answered.filter((url) => url.includes('example.invalid'))).toEqual([]);
    expect(failed.filter((line) => line.includes('example.invalid'))).toEqual(['http://images.example.invalid/cat.png csp']);
    expect(CONTENT_SECURITY_POLICY.split('; ')).toContain("img-src 'self' blob:");
  });
});
