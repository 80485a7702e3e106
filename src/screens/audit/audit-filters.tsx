import { useId } from 'react';
import { ENTITY_NAMES } from '../../../shared/entities';
import { useUsers } from '../../data/queries/users';
import { AUDIT_ACTION_LABEL, type AuditFilters } from '../../domain/audit-event';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/field';

const ENTITY_OPTIONS = ENTITY_NAMES.map((name) => ({ value: name, label: name }));
const ACTION_OPTIONS = Object.entries(AUDIT_ACTION_LABEL)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

/**
 * The Audit page's filters (issue #26): person (the actor's e-mail, offered from the people this
 * tablet knows), entity, record id, action and a range of days. Each change applies; typed text
 * after a short pause (the page waits for it to settle).
 */
export function AuditFiltersBar({ values, onChange, onClear }: { values: AuditFilters; onChange: (key: keyof AuditFilters, value: string, now?: boolean) => void; onClear: () => void }) {
  const people = useUsers();
  const listId = useId();
  const anySet = Object.values(values).some((v) => v !== '');
  return (
    <div role="search" aria-label="Filter the audit trail" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <TextField
          label="Person (e-mail)"
          type="email"
          list={listId}
          autoComplete="off"
          placeholder="name@example.org"
          value={values.actor}
          onChange={(e) => onChange('actor', e.target.value)}
        />
        <datalist id={listId}>
          {(people ?? []).map((p) => (
            <option key={p.id} value={p.email}>
              {p.full_name || p.email}
            </option>
          ))}
        </datalist>
        <SelectField label="Entity" placeholder="Any entity" options={ENTITY_OPTIONS} value={values.entity} onChange={(e) => onChange('entity', e.target.value, true)} />
        <TextField label="Record ID" autoComplete="off" spellCheck={false} value={values.record} onChange={(e) => onChange('record', e.target.value)} />
        <SelectField label="Action" placeholder="Any action" options={ACTION_OPTIONS} value={values.action} onChange={(e) => onChange('action', e.target.value, true)} />
        <TextField label="From" type="date" value={values.from} max={values.to || undefined} onChange={(e) => onChange('from', e.target.value, true)} />
        <TextField label="To" type="date" value={values.to} min={values.from || undefined} onChange={(e) => onChange('to', e.target.value, true)} />
      </div>
      {anySet && (
        <div className="mt-4 flex justify-end">
          <Button variant="ghost" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      )}
    </div>
  );
}
