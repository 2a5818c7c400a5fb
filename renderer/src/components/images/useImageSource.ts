// The source of one stored image for an <img>, held (not revoked) while the component shows it.
import { useEffect, useState } from 'react';
import { errorMessage, holdImage, imageSrc } from '../../api';

export type ImageSource = { src: string | null; error: string | null };

export function useImageSource(project: string | null, sha256: string | undefined): ImageSource {
  const [state, setState] = useState<ImageSource & { key: string }>({ key: '', src: null, error: null });
  const key = project && sha256 ? `${project}/${sha256}` : '';
  useEffect(() => {
    if (!project || !sha256) return;
    let live = true;
    const release = holdImage(project, sha256);
    imageSrc(project, sha256).then(
      (src) => live && setState({ key: `${project}/${sha256}`, src, error: null }),
      (error: unknown) => live && setState({ key: `${project}/${sha256}`, src: null, error: errorMessage(error) }),
    );
    return () => {
      live = false;
      release();
    };
  }, [project, sha256]);
  // A new image shows nothing of the old one's while it loads.
  return state.key === key ? { src: state.src, error: state.error } : { src: null, error: null };
}
