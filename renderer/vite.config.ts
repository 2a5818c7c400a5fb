// The renderer build: React + Tailwind v4, emitted to out/renderer with relative asset paths so the
// same files load from Electron's file/app protocol and from the browser host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { META_CONTENT_SECURITY_POLICY } from '../shared/csp.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [
    react(),
    tailwindcss(),
    // The page's CSP meta tag comes from shared/csp.ts, the one source the browser host and Electron's
    // app:// protocol send as a header too, so the copies cannot drift.
    {
      name: 'arbiter-csp',
      transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
    },
  ],
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // ARBITER_NO_MINIFY=1: readable names in a CPU profile (bench/video-loop.mjs --profile).
    minify: process.env.ARBITER_NO_MINIFY ? false : 'esbuild',
    chunkSizeWarningLimit: 2000,
    // No inline data: scripts; keep fonts as files (CSP allows font-src 'self').
    assetsInlineLimit: 0,
  },
});
