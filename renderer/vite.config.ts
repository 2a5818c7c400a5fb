// The renderer build: React + Tailwind v4, emitted to out/renderer with relative asset paths so the
// same files load from Electron's file/app protocol and from the browser host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    // No inline data: scripts; keep fonts as files (CSP allows font-src 'self').
    assetsInlineLimit: 0,
  },
});
