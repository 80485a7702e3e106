import { Button } from './button';

/** Cancel and submit under a program or site form; submit waits for a name and is off while saving. */
export function FormActions({ canSubmit, pending, labels, onCancel }: { canSubmit: boolean; pending: boolean; labels: { submit: string; pending: string }; onCancel: () => void }) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={!canSubmit || pending}>
        {pending ? labels.pending : labels.submit}
      </Button>
    </div>
  );
}
