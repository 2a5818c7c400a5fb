// Where the page plays a stored video from: a ticket address the service hands out (videoAddress), asked
// once per video and kept for the page's life (a ticket is good for hours; the same one comes back).
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../api';

const known = new Map<string, Promise<string>>();
/** Addresses already answered: a video whose address was asked ahead (the next item's) gets its src in its first render. */
const answered = new Map<string, string>();

/** The address of video `sha256` of `project` (cached), for prefetching the next item's first frames too. */
export function videoAddress(project: string, sha256: string): Promise<string> {
  const key = `${project}/${sha256}`;
  let found = known.get(key);
  if (!found) {
    found = api.videoAddress({ project, sha256 }).then((r) => {
      answered.set(key, r.path);
      return r.path;
    });
    found.catch(() => known.delete(key));
    known.set(key, found);
  }
  return found;
}

export function useVideoAddress(project: string | null, sha256: string | undefined): { src: string | null; error: string | null } {
  const key = project && sha256 ? `${project}/${sha256}` : '';
  const [state, setState] = useState<{ key: string; src: string | null; error: string | null }>(() => ({ key, src: answered.get(key) ?? null, error: null }));
  useEffect(() => {
    if (!project || !sha256) return;
    const ready = answered.get(`${project}/${sha256}`);
    if (ready !== undefined) {
      setState((s) => (s.key === `${project}/${sha256}` && s.src === ready ? s : { key: `${project}/${sha256}`, src: ready, error: null }));
      return;
    }
    let live = true;
    videoAddress(project, sha256).then(
      (src) => live && setState({ key: `${project}/${sha256}`, src, error: null }),
      (error: unknown) => live && setState({ key: `${project}/${sha256}`, src: null, error: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [project, sha256]);
  if (state.key === key) return { src: state.src, error: state.error };
  // A new video: its address when it was asked ahead, else nothing until it comes.
  return { src: answered.get(key) ?? null, error: null };
}
