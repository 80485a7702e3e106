import { Mail, Tablet } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { revokeDevice, revokeUser as revokeCoachTablets, useAdminDevices, type DeviceRecord } from '../../data/online/devices';
import { formatDateTime } from '../../domain/format';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonCards } from '../../ui/skeleton';
import { errorLine } from '../parts/present-error';
import { useCommand, type DeviceData } from '../parts/use-command';
import { REVOKE_COACH_TEXT, REVOKE_TABLET_TEXT, RevokeDialog } from './revoke-dialog';

/** The tablets of one coach, in the server's order (newest first). */
interface CoachTablets {
  userId: string;
  name: string;
  email: string | null;
  devices: DeviceRecord[];
}

/** Groups the server's list by coach; a coach comes where their newest tablet comes. */
export function groupByCoach(devices: DeviceRecord[]): CoachTablets[] {
  const groups = new Map<string, CoachTablets>();
  for (const device of devices) {
    let group = groups.get(device.user_id);
    if (!group) {
      group = { userId: device.user_id, name: device.user_name || device.user_email || 'Unknown coach', email: device.user_email, devices: [] };
      groups.set(device.user_id, group);
    }
    group.devices.push(device);
  }
  return [...groups.values()];
}

/** A short, stable handle to tell one tablet from another on the page. */
function shortId(device: DeviceRecord): string {
  return device.device_id.slice(0, 8);
}

export function tabletLabel(device: DeviceRecord): string {
  return `Tablet ${shortId(device)}`;
}

type Revocation = { kind: 'tablet'; device: DeviceRecord; coach: string } | { kind: 'coach'; group: CoachTablets };

/** One revocation, online (data/online/devices). */
function revoke(data: DeviceData, asked: Revocation, reason: string): Promise<unknown> {
  return asked.kind === 'tablet' ? revokeDevice(data, asked.device.device_id, reason) : revokeCoachTablets(data, asked.group.userId, reason);
}

function revokedMessage(asked: Revocation): string {
  return asked.kind === 'tablet' ? `${asked.coach}'s tablet ${shortId(asked.device)} revoked` : `All of ${asked.group.name}'s tablets revoked`;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-800">{children}</dd>
    </div>
  );
}

function TabletRow({ device, onRevoke }: { device: DeviceRecord; onRevoke: () => void }) {
  const label = tabletLabel(device);
  const revoked = device.revoked_date !== null;
  return (
    <li aria-label={label} className="flex flex-wrap items-start justify-between gap-3 border-t border-slate-100 py-4 first:border-t-0 first:pt-0 last:pb-0">
      <div className="min-w-64 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Tablet aria-hidden="true" className="h-4 w-4 text-slate-500" />
          <span className="font-medium text-slate-900">{label}</span>
          <Badge tone={revoked ? 'red' : 'green'}>{revoked ? 'Revoked' : 'Active'}</Badge>
        </div>
        <dl className="mt-2 grid grid-cols-2 gap-3 @lg:grid-cols-3">
          <Detail label="Registered">{formatDateTime(device.created_date, 'N/A')}</Detail>
          <Detail label="Last seen">{formatDateTime(device.last_seen_date, 'Never')}</Detail>
          <Detail label="Last key release">{formatDateTime(device.last_release_date, 'Never')}</Detail>
        </dl>
        {revoked && (
          <p className="mt-2 text-sm text-red-800">
            Revoked {formatDateTime(device.revoked_date)}
            {device.revoked_reason ? `: ${device.revoked_reason}` : ''}
          </p>
        )}
      </div>
      {!revoked && (
        <Button variant="secondary" onClick={onRevoke}>
          Revoke tablet
        </Button>
      )}
    </li>
  );
}

function CoachGroup({ group, isSelf, onRevokeTablet, onRevokeCoach }: { group: CoachTablets; isSelf: boolean; onRevokeTablet: (d: DeviceRecord) => void; onRevokeCoach: () => void }) {
  const headingId = useId();
  return (
    <Card className="p-5">
      <div role="group" aria-labelledby={headingId} className="@container">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={headingId} className="text-lg font-semibold text-slate-900">
              {group.name}
            </h3>
            {group.email && (
              <p className="mt-1 flex items-center gap-1.5 break-all text-sm text-slate-600">
                <Mail aria-hidden="true" className="h-4 w-4 shrink-0" /> {group.email}
              </p>
            )}
          </div>
          {isSelf ? (
            // The server refuses to revoke oneself; say so instead of offering a failing button.
            <p className="text-sm text-slate-500">This is your account.</p>
          ) : (
            <Button variant="danger" onClick={onRevokeCoach}>
              Revoke all of this coach's tablets
            </Button>
          )}
        </div>
        <ul className="border-t border-slate-100 pt-4">
          {group.devices.map((device) => (
            <TabletRow key={device.device_id} device={device} onRevoke={() => onRevokeTablet(device)} />
          ))}
        </ul>
      </div>
    </Card>
  );
}

/**
 * Signed-in tablets (issue #21.2): every registered tablet with its last contact, and the two
 * revocations. Online only: the list and the decisions are the server's.
 */
export function DevicesPanel({ meId }: { meId: string }) {
  const { devices, offline, error, refresh } = useAdminDevices(true);
  const groups = useMemo(() => groupByCoach(devices ?? []), [devices]);
  const [asking, setAsking] = useState<Revocation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const revocation = useCommand(revoke, {
    success: (_, asked) => revokedMessage(asked),
    failure: 'Failed to revoke',
    onSuccess: async () => {
      setAsking(null);
      await refresh();
    },
    // Inside the dialog: the server's own refusal, or the offline sentence of the data layer.
    onError: (presented) => setFailure(errorLine(presented)),
  });

  function ask(next: Revocation) {
    setFailure(null);
    setAsking(next);
  }

  function confirm(reason: string) {
    if (!asking) return;
    setFailure(null);
    void revocation.run(asking, reason);
  }

  let body: ReactNode;
  if (offline) {
    body = (
      <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        Tablets can be managed when online.
      </p>
    );
  } else if (devices === undefined) {
    body = <SkeletonCards count={2} className="grid gap-4" label="Loading tablets" />;
  } else {
    body = (
      <>
        {error && (
          <p role="alert" className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            Could not load tablets: {error}
          </p>
        )}
        {groups.length === 0 ? (
          !error && <EmptyState title="No tablets registered yet" description="A tablet appears here once a coach sets a PIN on it." />
        ) : (
          <div className="grid gap-4">
            {groups.map((group) => (
              <CoachGroup
                key={group.userId}
                group={group}
                isSelf={group.userId === meId}
                onRevokeTablet={(device) => ask({ kind: 'tablet', device, coach: group.name })}
                onRevokeCoach={() => ask({ kind: 'coach', group })}
              />
            ))}
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="mb-4 text-xl font-semibold text-slate-900">
        Signed-in tablets
      </h2>
      {body}
      {asking && (
        <RevokeDialog
          title={asking.kind === 'tablet' ? `Revoke ${asking.coach}'s tablet ${shortId(asking.device)}?` : `Revoke all of ${asking.group.name}'s tablets?`}
          description={asking.kind === 'tablet' ? REVOKE_TABLET_TEXT : REVOKE_COACH_TEXT}
          confirmLabel={asking.kind === 'tablet' ? 'Revoke tablet' : 'Revoke all tablets'}
          busy={revocation.pending}
          error={failure}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        />
      )}
    </section>
  );
}
