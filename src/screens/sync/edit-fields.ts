/**
 * Which fields of a rejected op a coach may edit on the Sync page, and how the typed text goes back
 * into values. Ids (`*_id`) and the client_ref are not editable: a wrong reference cannot be fixed
 * by typing another id, and client_ref keeps the create exactly-once (S3).
 */

import { unreachable } from '../../domain/unreachable';

export type FieldKind = 'text' | 'number' | 'boolean';

export interface EditableField {
  name: string;
  kind: FieldKind;
  /** The input's initial content ('' for empty); booleans use 'true' / 'false'. */
  initial: string;
}

function isEditableName(name: string): boolean {
  return name !== 'client_ref' && name !== 'id' && !name.endsWith('_id');
}

export function editableFields(data: Record<string, unknown>): EditableField[] {
  const out: EditableField[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (!isEditableName(name)) continue;
    if (typeof value === 'number') out.push({ name, kind: 'number', initial: String(value) });
    else if (typeof value === 'boolean') out.push({ name, kind: 'boolean', initial: String(value) });
    else if (typeof value === 'string' || value === null) out.push({ name, kind: 'text', initial: value ?? '' });
    // Arrays and objects (support_coach_emails) stay as they are: the detail pages edit those.
  }
  return out;
}

export type ParsedEdit = { ok: true; data: Record<string, unknown> } | { ok: false; field: string; message: string };

/** The changed fields only, typed back; an unparseable number is reported, not sent. */
export function parseEdits(fields: EditableField[], typed: Record<string, string>): ParsedEdit {
  const data: Record<string, unknown> = {};
  for (const f of fields) {
    const text = typed[f.name] ?? f.initial;
    if (text === f.initial) continue;
    switch (f.kind) {
      case 'text':
        data[f.name] = text.trim() === '' ? null : text;
        break;
      case 'number': {
        if (text.trim() === '') {
          data[f.name] = null;
          break;
        }
        const n = Number(text);
        if (!Number.isFinite(n)) return { ok: false, field: f.name, message: `${f.name.replace(/_/g, ' ')} must be a number` };
        data[f.name] = n;
        break;
      }
      case 'boolean':
        data[f.name] = text === 'true';
        break;
      default:
        return unreachable(f.kind, 'field kind');
    }
  }
  return { ok: true, data };
}
