import { useEffect } from 'react';
import { RouterProvider } from '@tanstack/react-router';
import { createAppRouter, type AppRouter } from './routes';
import { markFirstPageShown } from '../shell-api/first-page';

let browserRouter: AppRouter | undefined;

/**
 * The app's pages: the router with its route table, in a chunk of its own (src/app/screens.ts) so
 * that a first page shown instead of the app (Set a PIN, Passage is locked) does not load the
 * router (issue #11.6). Uses the given router (tests: memory history), else one on the browser's
 * history, made once. Its first render is the app's first page (src/app/first-page.ts).
 */
export function AppRoutes({ router }: { router?: AppRouter }) {
  const r = router ?? (browserRouter ??= createAppRouter());
  useEffect(() => r.subscribe('onRendered', () => markFirstPageShown()), [r]);
  return <RouterProvider router={r} />;
}
