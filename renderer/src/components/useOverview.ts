// A project's overview (its shapes, progress per task, the screen it opens on), read once per project
// and screen: what the empty states and the opening of a project go by.
import { useEffect, useState } from 'react';
import type { ProjectOverview } from '../../../shared/api';
import { api, errorMessage } from '../api';

/** `version`: read again when it moves (an import on the same screen). */
export function useOverview(project: string, version = 0): { overview: ProjectOverview | null; error: string | null } {
  const [state, setState] = useState<{ project: string; overview: ProjectOverview | null; error: string | null }>({ project, overview: null, error: null });
  useEffect(() => {
    let live = true;
    api
      .getProject({ project })
      .then((overview) => live && setState({ project, overview, error: null }))
      .catch((e: unknown) => live && setState({ project, overview: null, error: errorMessage(e) }));
    return () => {
      live = false;
    };
  }, [project, version]);
  return state.project === project ? state : { overview: null, error: null };
}
