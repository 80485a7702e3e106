import { Plus } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Keyed } from '../../data/queries/stable-keys';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { SECTION_TITLE } from '../../ui/field';
import { SkeletonCards } from '../../ui/skeleton';
import { useCommand, type DeviceData } from '../parts/use-command';
import type { ManagedFormProps } from './managed-card';

/** The words of one column, spec 2.11 and 8 (copied exactly: 'Programs ({count})', 'Add Program', …). */
export interface ColumnStrings {
  /** The heading's noun; the count follows in brackets: 'Programs (3)'. */
  heading: string;
  add: string;
  formTitle: string;
  submit: string;
  created: string;
  createFailed: string;
  /** The skeletons' name for screen readers ('Loading programs'). */
  loading: string;
  emptyTitle: string;
  emptyDescription: string;
}

/** Whether the page's data is on the tablet: 'loading' keeps the skeletons, 'partial' (offline, cut off) hides the empty state. */
export type ColumnFirstSync = 'ready' | 'partial' | 'loading';

/**
 * One column of ProgramsSites (spec 2.11), programs or sites: the heading with the count, the admin
 * 'Add …' with its New form, three skeletons while loading, the empty state, then one card per row
 * (keyed by the row's first id: an open Edit form survives the temporary id's swap, S2).
 */
export function ManagedColumn<R, I>({
  id,
  strings,
  rows,
  isAdmin,
  firstSync = 'ready',
  create,
  renderForm,
  renderCard,
  intro,
}: {
  /** The heading's id prefix ('programs' → 'programs-heading'). */
  id: string;
  strings: ColumnStrings;
  rows: Keyed<R>[] | undefined;
  isAdmin: boolean;
  firstSync?: ColumnFirstSync;
  create: (data: DeviceData, input: I) => Promise<unknown>;
  /** The New form: the column passes its pending state, submit and cancel. */
  renderForm: (form: ManagedFormProps<I> & { labels: { submit: string; pending: string } }) => ReactNode;
  renderCard: (row: R) => ReactNode;
  /** A line above the cards once there are some (the Sites column's 'On this tablet' note). */
  intro?: ReactNode;
}) {
  const [adding, setAdding] = useState(false);
  const add = useCommand(create, { success: strings.created, failure: strings.createFailed, onSuccess: () => setAdding(false) });
  const headingId = `${id}-heading`;

  return (
    <section aria-labelledby={headingId}>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          {strings.heading} ({rows && firstSync === 'ready' ? rows.length : '…'})
        </h2>
        {isAdmin && !adding && (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            {strings.add}
          </Button>
        )}
      </div>
      {adding && (
        <Card className="mb-4 p-5">
          <h3 className={`mb-3 ${SECTION_TITLE}`}>{strings.formTitle}</h3>
          {renderForm({
            labels: { submit: strings.submit, pending: 'Creating...' },
            pending: add.pending,
            onSubmit: (input) => void add.run(input),
            onCancel: () => setAdding(false),
          })}
        </Card>
      )}
      {intro && rows && rows.length > 0 && firstSync !== 'loading' && intro}
      {!rows || firstSync === 'loading' ? (
        <SkeletonCards count={3} className="space-y-4" label={strings.loading} />
      ) : rows.length === 0 ? (
        firstSync === 'partial' ? null : <EmptyState title={strings.emptyTitle} description={strings.emptyDescription} />
      ) : (
        <ul className="space-y-4">
          {rows.map(({ key, row }) => (
            <li key={key}>{renderCard(row)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
