/** The words of S11's logout warning, apart from the dialog so they are tested on their own. */

export function changesPhrase(count: number): string {
  return count === 1 ? '1 change that has not' : `${count} changes that have not`;
}

export function logoutWarning(count: number): string {
  return (
    `You have ${changesPhrase(count)} reached the server. ` +
    'If you log out now they stay on this device and are sent the next time you sign in here; ' +
    'nobody else can send them. Log out anyway?'
  );
}
