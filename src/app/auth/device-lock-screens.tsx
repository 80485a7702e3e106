import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { KeyRound, Lock, ShieldAlert } from 'lucide-react';
import { Button } from '../../ui/button';
import { CheckboxField, TextField } from '../../ui/field';
import { useAuth } from './auth-context';
import type { LockInfo, PendingKind, UnlockResult } from '../../data/device-lock';
import { MAX_ATTEMPTS } from '../../data/device-lock';
import { PIN_MAX_LENGTH, pinProblem } from '../../domain/pin-rule';
import { changesPhrase } from '../../domain/format';

/**
 * The device lock's screens (issue #14.2–3): choose a PIN after the first sign-in on a tablet,
 * enter it to open Passage (a start with a stored sign-in, or after the idle time), and what
 * happens after too many wrong PINs. Nothing of the app renders behind them.
 */

function LockCard({ icon, title, owner, children }: { icon: ReactNode; title: string; owner?: LockInfo['owner']; children: ReactNode }) {
  return (
    <main data-app-ready data-device-lock className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-4 flex justify-center text-slate-500">{icon}</div>
        <h1 className="text-center text-2xl font-bold text-slate-900">{title}</h1>
        {owner && <TabletOwner owner={owner} />}
        {children}
      </div>
    </main>
  );
}

/**
 * Whose tablet it is (issue #23.9), so a coach picking up a shared tablet knows whose PIN it asks
 * for: the staff name and e-mail of the coach directory, never anything of a participant.
 */
function TabletOwner({ owner }: { owner: NonNullable<LockInfo['owner']> }) {
  return (
    <p className="mt-2 text-center text-sm text-slate-700" data-testid="tablet-owner">
      {possessive(owner.name)} tablet
      {owner.name !== owner.email && <span className="block text-xs text-slate-500">{owner.email}</span>}
    </p>
  );
}

/** "Ana Coach's", "James's": the name as given, with an apostrophe and s. */
function possessive(name: string): string {
  return `${name}\u2019s`;
}

const PIN_INPUT = {
  type: 'password',
  inputMode: 'numeric',
  autoComplete: 'off',
  pattern: '[0-9]*',
  maxLength: PIN_MAX_LENGTH,
} as const;

function useLockInfo(): [LockInfo | null, () => void] {
  const { lockInfo } = useAuth();
  const [info, setInfo] = useState<LockInfo | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    lockInfo()
      .then((i) => live && setInfo(i))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [lockInfo, version]);
  return [info, () => setVersion((v) => v + 1)];
}

/** Seconds left until `at`, ticking; 0 once passed. */
function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at || at <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at ? Math.max(0, Math.ceil((at - now) / 1000)) : 0;
}

/** '15 minutes', '1 minute', '3 seconds' (an administrator may set less than a minute for a demo). */
export function idlePhrase(minutes: number): string {
  if (minutes < 1) {
    const seconds = Math.max(1, Math.round(minutes * 60));
    return seconds === 1 ? '1 second' : `${seconds} seconds`;
  }
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

const KIND_NAMES: Record<string, [string, string]> = {
  Participant: ['participant', 'participants'],
  Enrollment: ['enrollment', 'enrollments'],
  Cohort: ['cohort', 'cohorts'],
  Outcome: ['outcome', 'outcomes'],
  Program: ['program', 'programs'],
  Site: ['site', 'sites'],
  Session: ['session', 'sessions'],
  User: ['profile', 'profiles'],
};

/** '2 changes to participants and 1 to an enrollment' — what waits, named by kind (issue #21.7). */
export function pendingPhrase(kinds: readonly PendingKind[]): string {
  const parts = kinds.map(({ entity, count }, i) => {
    const [one, many] = KIND_NAMES[entity] ?? [entity.toLowerCase(), `${entity.toLowerCase()}s`];
    const what = count === 1 ? `${/^[aeiou]/.test(one) ? 'an' : 'a'} ${one}` : many;
    return i === 0 ? `${changesPhrase(count)} to ${what}` : `${count} to ${what}`;
  });
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function SetPinScreen() {
  const { setPin, secondFactorAvailable } = useAuth();
  const [info] = useLockInfo();
  const [canUseAuthenticator, setCanUseAuthenticator] = useState(false);
  const [withAuthenticator, setWithAuthenticator] = useState(false);
  useEffect(() => {
    let live = true;
    secondFactorAvailable()
      .then((ok) => live && setCanUseAuthenticator(ok))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [secondFactorAvailable]);
  const [pin, setPinValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const min = info?.policy.pin_min_length ?? 8;
  const minutes = info?.policy.idle_lock_minutes ?? 15;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = pinProblem(pin, min);
    if (problem) return setError(problem);
    if (pin !== confirm) return setError('The two PINs do not match.');
    setBusy(true);
    setError(null);
    try {
      await setPin(pin, { withAuthenticator });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The PIN could not be saved.');
      setBusy(false);
    }
  };

  return (
    <LockCard icon={<KeyRound aria-hidden="true" className="h-12 w-12" />} title="Set a PIN for this tablet">
      <p className="mt-3 text-sm text-slate-700">
        Passage keeps participants' personal information encrypted on this tablet. Choose a PIN of at least {min} digits: you will
        need it to open Passage without a connection, and after {idlePhrase(minutes)} without use.
      </p>
      <form className="mt-6 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="PIN" value={pin} onChange={(e) => setPinValue(e.target.value.trim())} {...PIN_INPUT} autoFocus />
        <TextField label="Confirm PIN" value={confirm} onChange={(e) => setConfirm(e.target.value.trim())} {...PIN_INPUT} error={error ?? undefined} />
        {canUseAuthenticator && (
          <div>
            <CheckboxField
              label="Also require this tablet's fingerprint, face or screen lock"
              checked={withAuthenticator}
              onChange={(e) => setWithAuthenticator(e.target.checked)}
            />
            <p className="mt-1 ml-6 text-xs text-slate-500">A copy of this tablet's data then cannot be opened by guessing the PIN.</p>
          </div>
        )}
        <Button type="submit" className="w-full" disabled={busy || !pin || !confirm}>
          {busy ? 'Saving…' : 'Save PIN'}
        </Button>
      </form>
      <p className="mt-4 text-xs text-slate-500">Forgot it later? Sign in again online and choose a new one; nothing on the tablet is lost.</p>
    </LockCard>
  );
}

function wrongMessage(result: Extract<UnlockResult, { ok: false }>): string | null {
  if (result.reason === 'wrong') return `Wrong PIN. ${result.attemptsLeft === 1 ? '1 try' : `${result.attemptsLeft} tries`} left.`;
  if (result.reason === 'no-pin') return 'No PIN is set on this tablet. Sign in again online.';
  if (result.reason === 'wait') return null;
  if (result.reason === 'no-second-factor') return "This tablet's fingerprint, face or screen lock did not answer. Enter the PIN and try again.";
  return null;
}

export function UnlockScreen() {
  const auth = useAuth();
  const [info, reloadInfo] = useLockInfo();
  const [pin, setPinValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [destroyed, setDestroyed] = useState(false);
  const [offlineHelp, setOfflineHelp] = useState(false);
  const wait = useSecondsUntil(info?.retryAt ?? null);
  const left = info ? MAX_ATTEMPTS - info.failedAttempts : MAX_ATTEMPTS;

  if (destroyed || info?.pinDestroyed) {
    return (
      <LockCard icon={<ShieldAlert aria-hidden="true" className="h-12 w-12 text-red-600" />} title="The PIN no longer opens this tablet" owner={info?.owner}>
        <p className="mt-3 text-sm text-slate-700">
          After {MAX_ATTEMPTS} wrong PINs, Passage stopped accepting a PIN on this tablet. Its data stays encrypted here
          {info && info.pending > 0 ? `, with ${pendingPhrase(info.pendingKinds)} not yet sent to the server` : ''}. Sign in online
          with your password to open it again and choose a new PIN{info && info.pending > 0 ? '; the waiting changes are sent then' : ''}.
        </p>
        <div className="mt-6 flex justify-center">
          <Button onClick={auth.afterWipe}>Sign in</Button>
        </div>
      </LockCard>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!pin) return;
    setBusy(true);
    setError(null);
    try {
      const result = await auth.unlock(pin);
      if (result.ok) return;
      if (result.reason === 'pin-destroyed') return setDestroyed(true);
      setPinValue('');
      setError(wrongMessage(result));
      reloadInfo();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Passage could not be unlocked.');
    } finally {
      setBusy(false);
    }
  };

  const forgot = () => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return setOfflineHelp(true);
    auth.forgotPin();
  };

  return (
    <LockCard icon={<Lock aria-hidden="true" className="h-12 w-12" />} title="Passage is locked" owner={info?.owner}>
      <p className="mt-3 text-center text-sm text-slate-700">Enter the PIN you set on this tablet.</p>
      <form className="mt-6 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="PIN" value={pin} onChange={(e) => setPinValue(e.target.value.trim())} {...PIN_INPUT} autoFocus error={error ?? undefined} />
        {wait > 0 && (
          <p role="status" className="text-sm text-amber-800">
            Too many wrong PINs. Try again in {wait} {wait === 1 ? 'second' : 'seconds'}.
          </p>
        )}
        {info && left === 1 && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            One more wrong PIN and the PIN stops opening this tablet: only an online sign-in with your password opens it again
            {info.pending > 0 ? `, and until then ${pendingPhrase(info.pendingKinds)} cannot be sent to the server` : ''}.
          </p>
        )}
        <Button type="submit" className="w-full" disabled={busy || !pin || wait > 0}>
          {busy ? 'Checking…' : 'Unlock'}
        </Button>
      </form>
      <div className="mt-4 text-center">
        <button type="button" className="text-sm font-medium text-blue-700 underline-offset-2 hover:underline" onClick={forgot}>
          Forgot your PIN?
        </button>
        {offlineHelp && (
          <p role="status" className="mt-2 text-sm text-slate-700">
            A new PIN needs an online sign-in. Connect this tablet to the internet, then choose Forgot your PIN? again.
          </p>
        )}
      </div>
    </LockCard>
  );
}

/** An administrator revoked this tablet (issue #21.2): its copy is gone; say why, and offer a sign-in. */
export function RevokedScreen({ reason }: { reason: string }) {
  const auth = useAuth();
  return (
    <LockCard icon={<ShieldAlert aria-hidden="true" className="h-12 w-12 text-red-600" />} title="This tablet was signed out">
      <p className="mt-3 text-sm text-slate-700">{reason}</p>
      <p className="mt-2 text-sm text-slate-700">Passage erased its data on this tablet. To use it again, sign in online.</p>
      <div className="mt-6 flex justify-center">
        <Button onClick={auth.afterWipe}>Sign in</Button>
      </div>
    </LockCard>
  );
}
