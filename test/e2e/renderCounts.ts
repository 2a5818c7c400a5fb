// Counts the renders of the page's React components in Chromium, in the production build: a stand-in for
// React's DevTools hook (installed before the app loads, as the DevTools extension's is) is told of every
// commit, and a function component counts as rendered in it when its hooks or its props are new objects
// (React clones a component's hooks each time it renders it; a skipped one keeps them). The build's names
// are minified, so a component is named by the data-testid of its own first element (not one a component
// it renders draws; a component without one is not counted).
import type { BrowserContext, Page } from 'playwright-core';

/** Installs the hook in every page the context opens; call before the app's page is loaded. */
export async function countRenders(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Fiber = { tag: number; type: unknown; child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null; memoizedState: unknown; memoizedProps: unknown; stateNode: unknown; __rc?: number };
    const w = window as unknown as { __renders: Record<string, number>; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
    w.__renders = {};
    // Function, forwardRef and simple memo components (React's fiber tags 0, 11, 15).
    const COMPONENT = new Set([0, 11, 15]);
    const seen = new Map<number, { s: unknown; p: unknown }>();
    let next = 1;
    // Its own first element: one reached through another component (a wrapper's child) names that one.
    const OTHER = new Set([0, 1, 11, 14, 15]);
    const nameOf = (fiber: Fiber): string | null => {
      for (let f: Fiber | null = fiber.child; f; f = f.child) {
        if (f.tag === 5) return (f.stateNode as Element).getAttribute('data-testid');
        if (OTHER.has(f.tag)) return null;
      }
      return null;
    };
    const walk = (fiber: Fiber | null) => {
      for (let f = fiber; f; f = f.sibling) {
        if (COMPONENT.has(f.tag)) {
          const id = f.__rc ?? f.alternate?.__rc ?? next++;
          f.__rc = id;
          if (f.alternate) f.alternate.__rc = id;
          const last = seen.get(id);
          if (last && (last.s !== f.memoizedState || last.p !== f.memoizedProps)) {
            const name = nameOf(f);
            if (name) w.__renders[name] = (w.__renders[name] ?? 0) + 1;
          }
          seen.set(id, { s: f.memoizedState, p: f.memoizedProps });
        }
        walk(f.child);
      }
    };
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => walk(root.current.child),
    };
  });
}

/** Starts counting afresh. */
export const resetRenders = (page: Page) => page.evaluate(() => void ((window as unknown as { __renders: Record<string, number> }).__renders = {}));

/** Renders since the last reset, by the component's first element's data-testid. */
export const renders = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { __renders: Record<string, number> }).__renders }));
