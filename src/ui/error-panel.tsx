import type { ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';

/** spec.md 8's words for an unexpected exception: the title of a page that could not be shown. */
export const UNEXPECTED_ERROR = 'An unexpected error occurred';

/** The words of a failed error's detail: its name and message ('TypeError: x is undefined'). */
export function errorDetail(error: unknown): string {
  if (error instanceof Error || typeof error !== 'object' || error === null) return String(error);
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/**
 * What a page that could not be shown says (the error boundaries of src/app): a short message for
 * people, the error's detail folded away for whoever helps them, and the ways back (`actions`).
 */
export function ErrorPanel({ title, message, detail, actions, className }: { title: string; message: string; detail: string; actions: ReactNode; className?: string }) {
  return (
    <div role="alert" className={className ?? 'mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center'}>
      <TriangleAlert aria-hidden="true" className="h-8 w-8 text-amber-600" />
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <p className="text-sm text-slate-600">{message}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">{actions}</div>
      <details className="mt-4 w-full text-left text-sm text-slate-600">
        <summary className="cursor-pointer text-center">Details</summary>
        <pre className="mt-2 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-slate-100 p-3 text-xs text-slate-800">{detail}</pre>
      </details>
    </div>
  );
}
