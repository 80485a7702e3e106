import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { useDataContext } from '../../data/provider';
import { readSyncStatus } from '../../data/queries/sync-status';
import { presentError, type PresentedError } from './present-error';

/**
 * Under the success toast when the write is only on this tablet (issue #23.9): offline, "Participant
 * added successfully!" (the spec's words, kept) said nothing of the server not having it yet.
 */
export const SAVED_HERE_HINT = 'Saved on this tablet, will send when online';

/** Offline, with this user's changes waiting in the queue (rejected ones wait for a person, not a connection). */
async function onlyOnThisTablet(data: DeviceData): Promise<boolean> {
  try {
    const status = await readSyncStatus(data);
    return !status.online && status.pending > status.rejected.length;
  } catch {
    return false; // a quiet hint: never worth a failure of its own
  }
}

/** The device's data context, as commands and online calls take it (first argument). */
export type DeviceData = ReturnType<typeof useDataContext>;

/** `T`, out of inference's reach (TypeScript's `NoInfer` mis-checks a rest tuple in a callback). */
type Later<T> = [T][T extends unknown ? 0 : never];

export interface CommandOptions<A extends unknown[], R> {
  /** The toast after success (spec.md 8), or one made from the result and arguments; none when absent. */
  success?: string | ((result: R, ...args: A) => string | undefined);
  /** What failed (spec.md 8's failure text where it has one): the error toast's title, whatever went wrong. */
  failure: string | ((...args: A) => string);
  /** After success and its toast: close the form, navigate. Awaited: the action stays pending meanwhile. */
  onSuccess?: (result: R, ...args: A) => unknown;
  /** Show the failure here instead of a toast (a dialog's or form's own line, see `errorLine`). */
  onError?: (presented: PresentedError, ...args: A) => void;
  /**
   * Every run counts: a run asked for while one is under way waits for it and then runs, instead of
   * being ignored (attendance taps: a coach taps a row twice for Late, faster than the tablet saves;
   * an administrator approves one person, then revokes another while the list refreshes). A run
   * with the same arguments as one waiting or under way is still ignored (a double tap).
   */
  serial?: boolean;
}

export interface Command<A extends unknown[]> {
  /** Runs the command once (a second call while it runs is ignored, or with `serial` runs after it); resolves true when it succeeded. Never rejects on the command's failure. */
  run: (...args: A) => Promise<boolean>;
  /** True while it runs: disable the buttons, show 'Saving...'. */
  pending: boolean;
  /** The arguments of the run under way (which row is busy), or null. */
  running: A | null;
}

/**
 * The one way a screen writes (issue #27): `command` gets the device's data context and the
 * arguments of `run`; while it runs, `pending` is true; then the success toast and `onSuccess`, or
 * one failure through `presentError` (the failure text, plus the data layer's reason meant for
 * people: storage full, offline, in use, the server's refusal). A success while offline, with the
 * change still in the queue, adds SAVED_HERE_HINT under the toast.
 *
 *   const save = useCommand((data, patch: Partial<CohortInput>) => updateCohort(data, id, patch), {
 *     success: 'Cohort updated successfully!',
 *     failure: 'Failed to update cohort. Please try again.',
 *     onSuccess: () => setEditing(false),
 *   });
 *   <Button disabled={save.pending} onClick={() => void save.run(patch)}>{save.pending ? 'Saving...' : 'Save'}</Button>
 */
export function useCommand<A extends unknown[], R>(
  command: (data: DeviceData, ...args: A) => Promise<R>,
  // Arguments and result are read off `command` alone (its parameter types), never off the options.
  options: CommandOptions<Later<A>, Later<R>>,
): Command<A> {
  const data = useDataContext();
  const [running, setRunning] = useState<A | null>(null);
  // Refs, not the state: two taps in one frame both see `pending` false, and must not both write.
  // `asked` counts the runs accepted and not yet finished; `last` is the latest of them (serial runs
  // start when it ends, in the order they were asked for).
  const asked = useRef<A[]>([]);
  const last = useRef<Promise<unknown>>(Promise.resolve());

  function run(...args: A): Promise<boolean> {
    if (asked.current.length > 0 && (!options.serial || asked.current.some((a) => sameArgs(a, args)))) return Promise.resolve(false);
    // The first run starts at once (its write begins before the screen draws); a later one queues.
    asked.current.push(args);
    const started = asked.current.length === 1 ? runNow(args) : last.current.then(() => runNow(args));
    last.current = started;
    return started;
  }

  async function runNow(args: A): Promise<boolean> {
    setRunning(args);
    try {
      let result: R;
      try {
        result = await command(data, ...args);
      } catch (error) {
        const presented = presentError(error, typeof options.failure === 'function' ? options.failure(...args) : options.failure);
        if (options.onError) options.onError(presented, ...args);
        else toast.error(presented.title, presented.reason ? { description: presented.reason } : undefined);
        return false;
      }
      const success = typeof options.success === 'function' ? options.success(result, ...args) : options.success;
      if (success) {
        // The spec's toast at once; the hint joins it when the queue says the change is only here.
        // Not awaited: the command is done, and holding it would refuse the person's next tap.
        const id = toast.success(success);
        void onlyOnThisTablet(data).then((only) => {
          if (only) toast.success(success, { id, description: SAVED_HERE_HINT });
        });
      }
      await options.onSuccess?.(result, ...args);
      return true;
    } finally {
      asked.current.splice(asked.current.indexOf(args), 1);
      if (asked.current.length === 0) setRunning(null);
    }
  }

  return { run, pending: running !== null, running };
}

/** The same arguments: each one the same value (a double tap on one button), not merely alike. */
function sameArgs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}
