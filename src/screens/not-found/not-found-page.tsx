import { Link } from '@tanstack/react-router';
import { Home, Info } from 'lucide-react';
import { useIsAdmin } from '../../shell-api/current-user';
import { buttonClass } from '../../ui/button';

/** The 404 screen (spec.md 2.16); admins also get a note on why an address may not exist. */
export function NotFoundPage({ path, inShell = false }: { path: string; inShell?: boolean }) {
  const isAdmin = useIsAdmin();
  // In the shell (issue #12.8) the layout gives <main> and data-app-ready; alone it is the whole page.
  const Outer = inShell ? 'div' : 'main';
  return (
    <Outer
      data-app-ready={inShell ? undefined : true}
      className={inShell ? 'flex items-center justify-center py-12' : 'flex min-h-screen items-center justify-center bg-slate-50 p-6'}
    >
      <div className="w-full max-w-md text-center">
        <p aria-hidden="true" className="text-7xl font-light text-slate-500">
          404
        </p>
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">Page Not Found</h1>
        <p className="mt-3 text-slate-700">The page "{path}" could not be found in this application.</p>
        {isAdmin && (
          <div className="mt-8 flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 text-left">
            <Info aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-blue-700" />
            <div>
              <p className="text-sm font-medium text-slate-800">Admin Note</p>
              <p className="mt-1 text-sm text-slate-600">
                This address may be mistyped or come from an old bookmark. Page addresses are the page name in lower
                case, such as /participants or /cohortdetail?id=…; use the sidebar to reach every page.
              </p>
            </div>
          </div>
        )}
        <Link to="/" className={buttonClass('secondary', 'mt-8')}>
          <Home aria-hidden="true" className="h-4 w-4" />
          Go Home
        </Link>
      </div>
    </Outer>
  );
}
