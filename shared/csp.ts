// The Content Security Policy for every page Arbiter shows. Model text is untrusted: no inline or
// remote scripts, no remote anything, no framing, no form posts.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
