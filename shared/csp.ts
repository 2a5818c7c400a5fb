// The Content Security Policy for every page Arbiter shows, in one place: the browser host and Electron's
// app:// protocol send it as a header, and the renderer build writes it into index.html's meta tag
// (renderer/vite.config.ts). Model text is untrusted: no inline or remote scripts, no eval, no remote
// anything, no framing, no form posts. Images come from the app's own origin (Electron's app:// image
// route) or blob: (the browser host's image route, fetched with the token); never data: or the network.
// Fonts are files of the build (vite's assetsInlineLimit is 0), so no data: there either.
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/**
 * The same policy for a `<meta>` tag. Browsers ignore `frame-ancestors` there (and log a warning on every
 * load), so it is left out; the header, which every page is served with, carries it.
 */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors ')).join('; ');
