// What every request to the browser host must show before it is read. The page the host serves is
// untrusted and so is the network: a web page on another site can make a browser send requests to
// 127.0.0.1 (cross-site requests, or DNS rebinding, where the attacker's own host name resolves to
// 127.0.0.1). So the host answers only requests addressed to its own name and port (Host), sent from its
// own page (Origin, when the browser says), with the token in a header and never in a URL.
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';

export interface Refusal {
  status: 401 | 403;
  message: string;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

function hostName(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The `Host` values this host answers to: the loopback names with its port, and the address it was
 * explicitly told to bind (every interface's address, for a wildcard), since a browser sends Host as
 * typed in the address bar. Names other than `localhost` are never accepted: that is what DNS
 * rebinding relies on.
 */
export function acceptedHosts(bindHost: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARDS.has(bindHost)) {
    for (const address of Object.values(networkInterfaces()).flat()) {
      // Link-local IPv6 needs a zone id (fe80::1%eth0) no browser puts in Host.
      if (address && !address.address.startsWith('fe80:')) names.add(hostName(address.address));
    }
  } else {
    names.add(hostName(bindHost.replace(/^\[|\]$/g, '')).toLowerCase());
  }
  const accepted = new Set<string>();
  for (const name of names) {
    accepted.add(`${name}:${port}`);
    if (port === 80) accepted.add(name);
  }
  return accepted;
}

/** Whether a request's path is one that reads or changes data (the API, downloads, images, videos) and not the page. */
export function isGuardedPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname.startsWith('/download/') || pathname.startsWith('/images/') || pathname.startsWith('/videos/');
}

/** Why a request is refused, or null when it may go on to its route (which still checks the token). */
export function refuseRequest(req: IncomingMessage, url: URL, accepted: Set<string>): Refusal | null {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!accepted.has(host)) {
    const own = [...accepted].slice(0, 3).join(', ');
    return {
      status: 403,
      message: `The request's Host header names "${req.headers.host ?? ''}", which is not this Arbiter host (it answers to ${own}). Open the URL Arbiter printed; pages on other sites cannot reach it.`,
    };
  }
  if (url.searchParams.has('token'))
    return {
      status: 401,
      message:
        'The API token was sent in the URL, where history, logs and screenshots keep it; it is accepted only in the x-arbiter-token header. Open the URL Arbiter printed: its #token=… part never leaves the browser.',
    };
  const origin = req.headers.origin;
  if (origin !== undefined && isGuardedPath(url.pathname) && origin.toLowerCase() !== `http://${host}`)
    return {
      status: 403,
      message: `Requests from the page at Origin "${origin}" are refused: only Arbiter's own page (http://${host}) may use its API and downloads.`,
    };
  return null;
}
