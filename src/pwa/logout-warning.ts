/** The words of S11's logout warning, apart from the dialog so they are tested on their own. */
import { changesPhrase } from '../domain/format';

/** '1 change that has not reached the server', '3 changes that have not …' (the warning and the S11 gate). */
export function unsentPhrase(count: number): string {
  return `${changesPhrase(count)} that ${count === 1 ? 'has' : 'have'} not reached the server`;
}

export function logoutWarning(count: number): string {
  return (
    `You have ${unsentPhrase(count)}. ` +
    'If you log out now they stay on this device and are sent the next time you sign in here; ' +
    'nobody else can send them. Log out anyway?'
  );
}
